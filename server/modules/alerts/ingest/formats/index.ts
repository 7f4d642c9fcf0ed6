import type { Config } from '../../../../config.ts';
import { awsSns } from './aws-sns.ts';
import { azureMonitor } from './azure-monitor.ts';
import { datadog } from './datadog.ts';
import { dattoRmm } from './datto-rmm.ts';
import type { IngestFormat } from './format.ts';
import { grafana } from './grafana.ts';
import { ninjaOne } from './ninjaone.ts';
import { httpsGet, SnsVerifier } from './sns-signature.ts';
import { uptimeKuma } from './uptime-kuma.ts';
import { zabbix } from './zabbix.ts';

export type { IngestFormat } from './format.ts';

/** Every vendor format of `/api/ingest/{format}`; aws-sns gets its certificate fetcher from the config. */
export function ingestFormats(config: Pick<Config, 'awsSns'>): IngestFormat[] {
  const verifier = new SnsVerifier(config.awsSns.certHostPattern, config.awsSns.fetch ?? httpsGet);
  return [grafana, zabbix, uptimeKuma, ninjaOne, dattoRmm, azureMonitor, datadog, awsSns(verifier)];
}
