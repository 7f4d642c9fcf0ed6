import { describe, expect, it } from 'vitest';
import { slackSignatureValid } from './slack-signature.ts';

// Slack's documented example (api.slack.com/authentication/verifying-requests-from-slack).
const secret = '8f742231b10e8888abcd99yyyzzz85a5';
const body =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const signature = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';
const ts = '1531420618';

describe("Slack's request signature", () => {
  it.each([
    ['the documented example', { signature, timestamp: ts }, body, 1531420618, true],
    ['within five minutes', { signature, timestamp: ts }, body, 1531420618 + 300, true],
    ['a stale timestamp', { signature, timestamp: ts }, body, 1531420618 + 301, false],
    ['a timestamp from the future', { signature, timestamp: ts }, body, 1531420618 - 301, false],
    ['a changed body', { signature, timestamp: ts }, `${body}x`, 1531420618, false],
    ['no signature', { timestamp: ts }, body, 1531420618, false],
    ['a short signature', { signature: 'v0=a2', timestamp: ts }, body, 1531420618, false],
    ['a timestamp that is no number', { signature, timestamp: 'soon' }, body, 1531420618, false],
  ])('%s', (_name, headers, raw, now, expected) => {
    expect(slackSignatureValid(secret, headers, raw, now)).toBe(expected);
  });
  it('refuses everything without a signing secret', () => {
    expect(slackSignatureValid(null, { signature, timestamp: ts }, body, 1531420618)).toBe(false);
  });
});
