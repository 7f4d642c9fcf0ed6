import { z } from 'zod';
import { formatPriority } from '../../../../../contract/ingest-formats.ts';
import { clip, nonEmpty, type NormalizedEvent } from '../ingest.mappers.ts';
import { fieldError, keyed, tagsOf, title, validate, type IngestFormat } from './format.ts';
import type { SnsVerifier } from './sns-signature.ts';

const str = (max: number) => z.string().max(max).nullish();

/**
 * An SNS HTTP(S) delivery (docs.aws.amazon.com/sns/latest/dg/sns-message-and-json-formats.html). SNS posts it as
 * text/plain; the routes read such a body as JSON.
 */
const SnsEnvelope = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'], { error: 'Type must be Notification, SubscriptionConfirmation or UnsubscribeConfirmation' }),
  MessageId: z.string({ error: 'MessageId is required' }).max(100),
  TopicArn: z.string({ error: 'TopicArn is required' }).max(1024),
  Message: z.string({ error: 'Message is required' }).max(262_144),
  Timestamp: z.string({ error: 'Timestamp is required' }).max(64),
  SignatureVersion: z.string({ error: 'SignatureVersion is required' }).max(4),
  Signature: z.string({ error: 'Signature is required' }).max(4096),
  SigningCertURL: z.string({ error: 'SigningCertURL is required' }).max(2048),
  Subject: str(1024),
  SubscribeURL: str(4096),
  Token: str(4096),
});

/**
 * A CloudWatch alarm's state change, the Message of its SNS notification
 * (docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/AlarmThatSendsEmail.html: AlarmName, AlarmDescription,
 * AWSAccountId, NewStateValue, NewStateReason, StateChangeTime, Region, AlarmArn, OldStateValue, Trigger).
 */
const CloudWatchAlarm = z.object({
  AlarmName: z.string({ error: 'AlarmName is required' }).min(1, 'AlarmName is required').max(1024),
  AlarmDescription: str(65_536),
  AWSAccountId: z.union([z.string().max(32), z.number()]).nullish(),
  NewStateValue: z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA'], { error: 'NewStateValue must be ALARM, OK or INSUFFICIENT_DATA' }),
  NewStateReason: str(65_536),
  StateChangeTime: str(64),
  Region: str(100),
  AlarmArn: str(2048),
  OldStateValue: str(32),
  Trigger: z.object({ MetricName: str(255), Namespace: str(255), Dimensions: z.array(z.object({ name: str(255), value: str(1024) })).max(30).nullish() }).nullish(),
});

function alarmEvents(alarm: z.output<typeof CloudWatchAlarm>): NormalizedEvent[] {
  const account = alarm.AWSAccountId === null || alarm.AWSAccountId === undefined ? '' : String(alarm.AWSAccountId);
  const dimension = alarm.Trigger?.Dimensions?.find((d) => d.value)?.value;
  return [
    {
      action: alarm.NewStateValue === 'OK' ? 'resolve' : 'trigger',
      dedupKey: keyed('aws-sns', alarm.AlarmArn || `${account}:${alarm.AlarmName}`),
      title: title(alarm.AlarmName),
      description: clip([alarm.AlarmDescription, alarm.NewStateReason].filter(Boolean).join('\n\n'), 65_536),
      priority: formatPriority('aws-sns', alarm.NewStateValue),
      source: clip(dimension || alarm.Trigger?.Namespace || 'cloudwatch', 1024),
      // One AWS account per client is the usual MSP set-up: the account id, as a client alias, names the client.
      clientRef: account || null,
      tags: tagsOf({ state: alarm.NewStateValue, metric: alarm.Trigger?.MetricName, namespace: alarm.Trigger?.Namespace, region: alarm.Region }),
      metadata: nonEmpty({ alarmArn: alarm.AlarmArn, accountId: account, region: alarm.Region, previousState: alarm.OldStateValue, changedAt: alarm.StateChangeTime }),
    },
  ];
}

/** The JSON of a Message, or null when it is plain text (a topic other tools publish to). */
function json(message: string): unknown {
  if (!message.trimStart().startsWith('{')) return null;
  try {
    return JSON.parse(message);
  } catch {
    return null;
  }
}

/** The alert a verified message makes: a CloudWatch alarm's, else one of its Subject; none for the subscription's own messages. */
function eventsOf(envelope: z.output<typeof SnsEnvelope>): NormalizedEvent[] {
  if (envelope.Type !== 'Notification') return [];
  const parsed = json(envelope.Message);
  if (parsed && typeof parsed === 'object' && 'AlarmName' in parsed) return alarmEvents(validate(CloudWatchAlarm, parsed, 'Message'));
  if (!envelope.Message.trim() && !envelope.Subject) throw fieldError('Message', 'Message is empty');
  return [
    {
      action: 'trigger',
      dedupKey: keyed('aws-sns', envelope.MessageId),
      title: title(envelope.Subject, envelope.Message.split('\n')[0]),
      description: clip(envelope.Message, 65_536),
      priority: 'medium',
      source: clip(envelope.TopicArn, 1024),
      clientRef: null,
      tags: [],
      metadata: { topicArn: envelope.TopicArn, messageId: envelope.MessageId },
    },
  ];
}

/**
 * CloudWatch alarms through SNS. The signature is checked before anything else is done with the message; a
 * subscription is confirmed only then, and only at an SNS host. A notification that is not a CloudWatch alarm
 * becomes an alert of its Subject, one per message.
 */
export const awsSns = (verifier: SnsVerifier): IngestFormat => ({
  name: 'aws-sns',
  summary: 'AWS SNS HTTPS subscription (CloudWatch alarms); signatures verified',
  count: () => 1,
  async parse(body) {
    const envelope = validate(SnsEnvelope, body);
    await verifier.verify(envelope);
    if (envelope.Type === 'SubscriptionConfirmation') await verifier.confirm(envelope.SubscribeURL);
    return eventsOf(envelope);
  },
  preview: (body) => eventsOf(validate(SnsEnvelope, body)),
});
