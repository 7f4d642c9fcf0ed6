import { describe, expect, it } from 'vitest';
import { DEFAULT_PRIORITY_WORDS, EMAIL_MSG, patternProblem, type PriorityWord } from '../../../contract/integrations.ts';
import { boundedKey, capturedKey, isResolveSubject, normalizeSubject, priorityOf, runPattern, stoppedByLoad } from './mail-rules.ts';

describe('normalizeSubject (the default dedup key)', () => {
  it.each([
    ['Backup failed on fs-2', 'backup failed on fs-2'],
    ['RE: FW: [RESOLVED] Backup failed on fs-2 (3) 2025-05-01 10:00', 'backup failed on fs-2'],
    ['Fwd: AW: WG: Sv: Backup failed on fs-2', 'backup failed on fs-2'],
    ['RE[2]: Backup failed on fs-2', 'backup failed on fs-2'],
    ['RESOLVED: Backup failed on fs-2', 'backup failed on fs-2'],
    ['[OK] Backup failed on fs-2', 'backup failed on fs-2'],
    ['Cleared - Backup failed on fs-2', 'backup failed on fs-2'],
    ['CRITICAL: CPU high on web-2 since Mon, 5 May 2025 10:00:00 +0200', 'cpu high on web-2'],
    ['** PROBLEM Service Alert: web-1/HTTP is CRITICAL **', 'service alert: web-1/http'],
    ['** RECOVERY Service Alert: web-1/HTTP is OK **', 'service alert: web-1/http'],
    ['Server web-1 is down', 'server web-1'],
    ['[Veeam] Job "Nightly" finished with 3 errors at 23:15:02 UTC', 'job "nightly" finished with error'],
    ['Disk 95% full on db-1', 'disk full on db-1'],
    ['Disk 97.5 % full on db-1', 'disk full on db-1'],
    ['Backup report for May 1, 2025', 'backup report'],
    ['Backup report for 1st June 2025', 'backup report'],
    ['Backup report for 12/05/2025', 'backup report'],
    ['Backup report 2025/05/12', 'backup report'],
    ['Backup report 12.05.25 06:30 AM', 'backup report'],
    ['Backup report 2025-05-12T06:30:00.123Z', 'backup report'],
    ['Job #1234 failed (attempt 3 of 5)', 'job failed'],
    ['Job failed [2/5]', 'job failed'],
    ['Job failed, retry 2', 'job failed, retry'],
    ['Printer jam x3', 'printer jam'],
    ['Printer jam 4 times', 'printer jam'],
    ['   Many    spaces\there  ', 'many spaces here'],
    ['Re: AW: Störung Drucker 3. OG', 'störung drucker 3. og'],
    // What tells two machines apart stays.
    ['Disk full on srv1', 'disk full on srv1'],
    ['Disk full on db-2', 'disk full on db-2'],
    ['Error 40001 on queue', 'error 40001 on queue'],
    ['', ''],
    ['RE:', ''],
  ])('%j → %j', (subject, key) => {
    expect(normalizeSubject(subject)).toBe(key);
  });

  it('keeps a key within 255 characters, telling long ones apart by a hash', () => {
    const a = boundedKey('x'.repeat(300));
    const b = boundedKey(`${'x'.repeat(299)}y`);
    expect(a).toHaveLength(233);
    expect(a).not.toBe(b);
    expect(boundedKey('short')).toBe('short');
  });
});

describe('isResolveSubject (the default resolve rule)', () => {
  it.each([
    ['RESOLVED: Backup failed on fs-2', true],
    ['Resolved - Backup failed on fs-2', true],
    ['[RESOLVED] Backup failed', true],
    ['OK: disk fine', true],
    ['OK - disk fine', true],
    ['Recovery: web-1 up', true],
    ['Recovered: web-1', true],
    ['Cleared: UPS on battery', true],
    ['** RECOVERY Service Alert: web-1/HTTP is OK **', true],
    ['Server web-1 is UP', true],
    ['Disk on db-1 is OK', true],
    ['Backup failed on fs-2', false],
    ['RE: RESOLVED: Backup failed', false],
    ['OKAY so the backup failed', false],
    ['Not resolved: disk full', false],
    ['Server web-1 is down', false],
    ['Cleanup failed', false],
  ])('%j → %s', (subject, resolves) => {
    expect(isResolveSubject(subject)).toBe(resolves);
  });
});

describe('priorityOf (words in the subject)', () => {
  const own: PriorityWord[] = [
    { word: 'P1', priority: 'critical' },
    { word: 'not responding', priority: 'high' },
    { word: 'Störung', priority: 'high' },
  ];
  it.each<[string, readonly PriorityWord[] | null, string]>([
    ['CRITICAL: disk full', null, 'critical'],
    ['Backup failed on fs-2', null, 'high'],
    ['Error in job', null, 'high'],
    ['Warning: certificate expires', null, 'medium'],
    ['Low toner', null, 'low'],
    ['Backup succeeded', null, 'info'],
    ['Warning: backup failed', null, 'high'],
    ['warning, critical and info at once', null, 'critical'],
    ['Nothing to see', null, 'medium'],
    // Whole words only: "errors", "lowered", "informed" are not "error", "low", "info".
    ['3 errors lowered informed', null, 'medium'],
    ['P1: web-1 not   responding', own, 'critical'],
    ['web-1 NOT RESPONDING', own, 'high'],
    ['Störung im 3. OG', own, 'high'],
    ['Backup failed', own, 'low'],
    ['Backup failed', [], 'low'],
  ])('%j with %j → %s', (subject, words, priority) => {
    expect(priorityOf(subject, words, words === null ? 'medium' : 'low')).toBe(priority);
  });

  it('covers the brief’s words by default', () => {
    const of = (word: string) => DEFAULT_PRIORITY_WORDS.find((w) => w.word === word)?.priority;
    expect([of('critical'), of('high'), of('error'), of('failed'), of('warning')]).toEqual(['critical', 'high', 'high', 'high', 'medium']);
  });
});

describe('patterns', () => {
  it.each<[string, string | null]>([
    ['host=(\\S+)', null],
    ['(?<host>[\\w-]+)\\.example\\.com', null],
    ['^Job "([^"]+)"', null],
    ['(ERROR|FAIL)+', null],
    ['\\(a+\\)+', null],
    ['[(]+x', null],
    ['a{2,}', null],
    ['(a+){3}', null],
    ['(a+)+$', EMAIL_MSG.nestedRepetition],
    ['(\\w*)*x', EMAIL_MSG.nestedRepetition],
    ['((a+))+', EMAIL_MSG.nestedRepetition],
    ['(?:x+y)*', EMAIL_MSG.nestedRepetition],
    ['(a{2,}){2,}', EMAIL_MSG.nestedRepetition],
    ['(', EMAIL_MSG.invalidPattern('Unterminated group')],
    ['a**', EMAIL_MSG.invalidPattern('Nothing to repeat')],
    ['x'.repeat(201), EMAIL_MSG.patternTooLong],
  ])('patternProblem(%j) → %j', (pattern, problem) => {
    expect(patternProblem(pattern)).toBe(problem);
  });

  it('runs case-insensitively and takes the first capture group that took part, else the whole match', () => {
    const m = runPattern('host=(\\S+)', 'Alert HOST=web-1 down');
    expect(m && m !== 'timeout' && capturedKey(m)).toBe('web-1');
    const alt = runPattern('(?:a=(\\d+))|(?:b=(\\d+))', 'b=7');
    expect(alt && alt !== 'timeout' && capturedKey(alt)).toBe('7');
    const whole = runPattern('web-\\d+', 'down: WEB-12 ');
    expect(whole && whole !== 'timeout' && capturedKey(whole)).toBe('WEB-12');
    expect(runPattern('nothing', 'here')).toBeNull();
  });

  it('stops a pattern that backtracks without end and reports it', () => {
    const started = Date.now();
    // The shape the save-time check refuses, run anyway: it must not hold the server.
    expect(runPattern('^(a|aa)+$', `${'a'.repeat(60)}b`)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_000);
    // The runner is usable at once afterwards.
    expect(runPattern('b$', 'ab')).not.toBeNull();
  });

  it('tells a run stopped while the process was waiting (a loaded machine) from one that used its time', () => {
    expect(stoppedByLoad({ user: 3_000, system: 1_000 }, 50)).toBe(true);
    expect(stoppedByLoad({ user: 24_000, system: 0 }, 50)).toBe(true);
    expect(stoppedByLoad({ user: 25_000, system: 0 }, 50)).toBe(false);
    expect(stoppedByLoad({ user: 48_000, system: 2_000 }, 50)).toBe(false);
  });
});
