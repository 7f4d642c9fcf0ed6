import { DEFAULT_NOTIFICATION_PREFERENCES, PRIORITIES, type NotificationPreferences, type Priority } from '../../contract/profile.ts';
import { parseJson } from '../db/database.ts';
import type { NotificationPreferencesTable } from '../db/schema.ts';

export type ChannelPreferences = Omit<NotificationPreferences, 'alertSubscriptions'>;

const bool = (n: number) => n === 1;

/** Channel settings from their row, or the defaults of spec section 9 when the user never saved any. */
export function toChannelPreferences(row: NotificationPreferencesTable | undefined): ChannelPreferences {
  if (!row) {
    const { alertSubscriptions: _unused, ...defaults } = DEFAULT_NOTIFICATION_PREFERENCES;
    return structuredClone(defaults);
  }
  const types = parseJson<string[]>(row.sms_alert_types, []).filter((p): p is Priority => (PRIORITIES as readonly string[]).includes(p));
  return {
    email: {
      enabled: bool(row.email_enabled),
      alertNotifications: bool(row.email_alert_notifications),
      weeklyDigest: bool(row.email_weekly_digest),
      systemUpdates: bool(row.email_system_updates),
    },
    sms: { enabled: bool(row.sms_enabled), alertTypes: types },
    push: { enabled: bool(row.push_enabled) },
    phoneNumber: row.phone_number,
  };
}

/** The row's columns for saved channel settings. */
export function preferenceColumns(prefs: ChannelPreferences) {
  return {
    email_enabled: prefs.email.enabled ? 1 : 0,
    email_alert_notifications: prefs.email.alertNotifications ? 1 : 0,
    email_weekly_digest: prefs.email.weeklyDigest ? 1 : 0,
    email_system_updates: prefs.email.systemUpdates ? 1 : 0,
    sms_enabled: prefs.sms.enabled ? 1 : 0,
    sms_alert_types: JSON.stringify(prefs.sms.alertTypes),
    push_enabled: prefs.push.enabled ? 1 : 0,
    phone_number: prefs.phoneNumber,
  };
}
