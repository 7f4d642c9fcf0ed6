import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_members_profile.ts';
import * as m0003 from './0003_alerts.ts';
import * as m0004 from './0004_system.ts';
import * as m0006 from './0006_email_verification.ts';
import * as m0005 from './0005_clients.ts';
import * as m0007 from './0007_oncall_schedules.ts';
import * as m0008 from './0008_escalation_policies.ts';
import * as m0009 from './0009_paging.ts';
import * as m0010 from './0010_approvals.ts';
import * as m0011 from './0011_alert_priority_order.ts';
import * as m0012 from './0012_alert_text_search.ts';
import * as m0013 from './0013_escalation_schedule.ts';
import * as m0014 from './0014_lean_alert_indexes.ts';
import * as m0015 from './0015_retire_escalation_jobs.ts';
import * as m0016 from './0016_approval_self_approval.ts';
import * as m0017 from './0017_user_time_zone.ts';
import * as m0018 from './0018_alert_paged_nobody.ts';
import * as m0019 from './0019_sign_in_links.ts';
import * as m0020 from './0020_page_short_links.ts';
import * as m0021 from './0021_heartbeats.ts';
import * as m0022 from './0022_inbound_email.ts';
import * as m0023 from './0023_reports.ts';
import * as m0024 from './0024_maintenance.ts';
import * as m0025 from './0025_api_tokens_destinations.ts';
import * as m0026 from './0026_ingest_routing.ts';
import * as m0027 from './0027_weekly_digest.ts';
import * as m0028 from './0028_schedule_layers.ts';
import * as m0029 from './0029_psa.ts';
import * as m0030 from './0030_chat_destinations.ts';
import * as m0031 from './0031_escalation_targets.ts';
import * as m0032 from './0032_notification_rules.ts';
import * as m0033 from './0033_shift_swaps.ts';
import * as m0034 from './0034_heartbeat_mail.ts';
import * as m0035 from './0035_report_rollups.ts';

/** Every migration, in order. Append new ones; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_members_profile': m0002,
  '0003_alerts': m0003,
  '0004_system': m0004,
  '0005_clients': m0005,
  '0006_email_verification': m0006,
  '0007_oncall_schedules': m0007,
  '0008_escalation_policies': m0008,
  '0009_paging': m0009,
  '0010_approvals': m0010,
  '0011_alert_priority_order': m0011,
  '0012_alert_text_search': m0012,
  '0013_escalation_schedule': m0013,
  '0014_lean_alert_indexes': m0014,
  '0015_retire_escalation_jobs': m0015,
  '0016_approval_self_approval': m0016,
  '0017_user_time_zone': m0017,
  '0018_alert_paged_nobody': m0018,
  '0019_sign_in_links': m0019,
  '0020_page_short_links': m0020,
  '0021_heartbeats': m0021,
  '0022_inbound_email': m0022,
  '0023_reports': m0023,
  '0024_maintenance': m0024,
  '0025_api_tokens_destinations': m0025,
  '0026_ingest_routing': m0026,
  '0027_weekly_digest': m0027,
  '0028_schedule_layers': m0028,
  '0029_psa': m0029,
  '0030_chat_destinations': m0030,
  '0031_escalation_targets': m0031,
  '0032_notification_rules': m0032,
  '0033_shift_swaps': m0033,
  '0034_heartbeat_mail': m0034,
  '0035_report_rollups': m0035,
};
