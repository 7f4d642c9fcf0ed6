import { createHash } from 'node:crypto';
import vm from 'node:vm';
import type { AlertPriority } from '../../../contract/alerts.ts';
import { DEFAULT_PRIORITY_WORDS, DEFAULT_RESOLVE_WORDS, type PriorityWord } from '../../../contract/integrations.ts';

// The rules that turn a mail into an alert's dedup key, priority and resolution: pure, table-tested
// (mail-rules.test.ts). A tenant's own patterns run through `runPattern`, which bounds their time.

/** Leading reply/forward markers, bracketed tags and status words: "RE: FW: [RESOLVED] CRITICAL: …". */
const PREFIX = new RegExp(
  [
    String.raw`^(?:re|fwd?|aw|wg|sv|antw|tr)\s*(?:\[\d+\])?\s*:`,
    String.raw`^\[[^\]]{0,60}\]`,
    String.raw`^\((?:resolved|ok|recovery|recovered|cleared|problem|alert|alarm|critical|warning|error|info)\)`,
    String.raw`^\*+`,
    String.raw`^(?:resolved|ok|recovery|recovered|cleared|problem|alert|alarm|critical|warning|warn|error|info|notice|high|medium|low|failed|failure|success|successful|firing|triggered)\s*[:!\-–—|]`,
  ].join('|'),
  'i',
);
/** An upper-case status word before the rest ("PROBLEM Service Alert: …", "RECOVERY Host Alert: …"). */
const CAPS_STATUS = /^(?:PROBLEM|RECOVERY|RESOLVED|OK|ALERT|ALARM|CRITICAL|WARNING|FIRING|CLEARED)\s+/;
/** A trailing state ("… is CRITICAL **", "… is OK"). */
const TRAILING_STATE = /\s+is\s+(?:ok|up|down|critical|warning|unknown|unreachable|resolved|recovered)[\s*!.]*$/i;

const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const ZONE = String.raw`(?:\s*(?:Z|UTC|GMT|CES?T|EES?T|BST|[ECMP][SD]T|[+-]\d{2}:?\d{2})\b)?`;
const TIME = String.raw`\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[ap]\.?m\.?)?${ZONE}`;
/** Dates, times and counters: what differs between two mails about the same thing. */
const VOLATILE: Array<[RegExp, string]> = [
  [new RegExp(String.raw`\b\d{4}-\d{2}-\d{2}(?:[T ]${TIME})?`, 'gi'), ' '],
  [new RegExp(String.raw`\b\d{4}/\d{1,2}/\d{1,2}\b`, 'g'), ' '],
  [new RegExp(String.raw`\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b`, 'g'), ' '],
  [new RegExp(String.raw`\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,`, 'gi'), ' '],
  [/\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/gi, ' '],
  [new RegExp(String.raw`\b${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4}\b)?`, 'gi'), ' '],
  [new RegExp(String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+${MONTH}(?:\s+\d{4}\b)?`, 'gi'), ' '],
  [new RegExp(String.raw`\b${TIME}`, 'gi'), ' '],
  [/\(\s*(?:attempt|retry|try|run|occurrence|count|instance)?\s*#?\s*\d+(?:\s*(?:of|\/)\s*\d+)?\s*\)/gi, ' '],
  [/\(\s*\d+\s*\)|\[\s*\d+(?:\s*\/\s*\d+)?\s*\]|#\d+\b/g, ' '],
  [/\b\d+\s+of\s+\d+\b/gi, ' '],
  [/\b(attempt|retry|try|run|occurrence|count|instance)\s*#?\s*\d+\b/gi, '$1'],
  [/\b\d+\s*(?:times|x)\b|\bx\s?\d+\b/gi, ' '],
  [/\b\d+(?:[.,]\d+)?\s*%/g, ' '],
  [/\b\d+\s+(error|warning|failure|item|file|job|message|alert|event|problem|issue|object|vm|machine|disk|task)s?\b/gi, '$1'],
];

/** A preposition left at the end once the date after it is gone ("… since", "… at", "report for"). */
const DANGLING = /\s+(?:at|on|since|for|from|of)$/i;

const DEDUP_KEY_MAX = 255;

/**
 * The default dedup key: the subject without reply/forward markers, bracketed tags and status words at its start, a
 * trailing "is OK"-style state, dates, times and counters, with its whitespace collapsed, in lower case. "RE: [RESOLVED]
 * Backup failed on fs-2 (3) 2025-05-01 10:00" and "Backup failed on fs-2" give the same key.
 */
export function normalizeSubject(subject: string): string {
  let s = subject.trim();
  for (let i = 0; i < 20; i++) {
    const before = s;
    s = s.replace(PREFIX, '').replace(CAPS_STATUS, '').trimStart();
    if (s === before) break;
  }
  s = s.replace(TRAILING_STATE, '');
  for (const [re, by] of VOLATILE) s = s.replace(re, by);
  return s
    .replace(/\(\s*\)|\[\s*\]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s*\-–—:|,.;!]+|[\s*\-–—:|,;!]+$/g, '')
    .replace(DANGLING, '')
    .toLowerCase();
}

/** A dedup key within the column's 255 characters: a longer one keeps its start and a hash of the whole. */
export function boundedKey(key: string): string {
  if (key.length <= DEDUP_KEY_MAX) return key;
  return `${key.slice(0, 200)}#${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

const RESOLVE_START = new RegExp(String.raw`^[\s*\[(<"'#-]*(?:${DEFAULT_RESOLVE_WORDS.join('|')})\b`, 'i');
const RESOLVED_STATE = /\s+is\s+(?:ok|up|resolved|recovered|cleared)[\s*!.]*$/i;
/**
 * The default resolve rule: the subject starts (after punctuation such as "[", "**", "(") with RESOLVED, OK, Recovery,
 * Recovered or Cleared, or ends in the state the default dedup key drops ("… is OK", "… is UP").
 */
export const isResolveSubject = (subject: string) => RESOLVE_START.test(subject) || RESOLVED_STATE.test(subject);

const SEVERITY: Record<AlertPriority, number> = { critical: 5, high: 4, medium: 3, low: 2, info: 1 };
const wordMatchers = new WeakMap<readonly PriorityWord[], { re: RegExp; byWord: Map<string, AlertPriority> }>();

function wordMatcher(words: readonly PriorityWord[]) {
  let m = wordMatchers.get(words);
  if (!m) {
    const byWord = new Map<string, AlertPriority>();
    for (const w of words) byWord.set(w.word.toLowerCase().replace(/\s+/g, ' '), w.priority);
    // Saved words hold only letters, digits, spaces, "-" and "_" (contract), so none needs escaping; longer first, so
    // "not responding" wins over "not". Whole words: no letter or digit may touch either end.
    const alternatives = [...byWord.keys()].sort((a, b) => b.length - a.length).map((w) => w.split(' ').join(String.raw`\s+`));
    const re = alternatives.length ? new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${alternatives.join('|')})(?![\p{L}\p{N}])`, 'giu') : /$^/gu;
    m = { re, byWord };
    wordMatchers.set(words, m);
  }
  return m;
}

/** The priority of the most severe listed word in the subject (whole words, any case), else `fallback`. */
export function priorityOf(subject: string, words: readonly PriorityWord[] | null, fallback: AlertPriority): AlertPriority {
  const { re, byWord } = wordMatcher(words ?? DEFAULT_PRIORITY_WORDS);
  let best: AlertPriority | null = null;
  for (const found of subject.matchAll(re)) {
    const p = byWord.get(found[0].toLowerCase().replace(/\s+/g, ' '));
    if (p && (!best || SEVERITY[p] > SEVERITY[best])) best = p;
  }
  return best ?? fallback;
}

const compiled = new Map<string, RegExp>();
const sandbox = vm.createContext(Object.create(null));
const exec = new vm.Script('pattern.exec(text)');
/** How long a tenant's pattern may run over one text before it counts as not matching. */
export const PATTERN_TIMEOUT_MS = 50;

/**
 * A tenant's pattern (saved only when it compiled and passed the contract's checks) over a text, case-insensitive,
 * with ^ and $ at every line's start and end (a body's "^Job: (\S+)$" means a line of it), stopped after PATTERN_TIMEOUT_MS: what the checks cannot rule out (`.*.*.*x` on a long text) costs one mail a few
 * milliseconds, never the server. 'timeout' when it was stopped.
 */
export function runPattern(pattern: string, text: string): RegExpExecArray | null | 'timeout' {
  let re = compiled.get(pattern);
  if (!re) {
    try {
      re = new RegExp(pattern, 'im');
    } catch {
      return null;
    }
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(pattern, re);
  }
  sandbox.pattern = re;
  sandbox.text = text;
  try {
    for (let tries = 1; ; tries++) {
      const cpu = process.cpuUsage();
      try {
        return exec.runInContext(sandbox, { timeout: PATTERN_TIMEOUT_MS }) as RegExpExecArray | null;
      } catch (err) {
        if ((err as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
        // vm's timeout is a wall clock: on a loaded machine a one-line pattern is stopped while this process was hardly
        // running (seen in the test suite: a mail's dedup key lost at random). Stopped having used little CPU, it runs
        // again; a pattern that really backtracks uses the CPU it is given and is stopped for good.
        if (tries < PATTERN_TRIES && stoppedByLoad(process.cpuUsage(cpu), PATTERN_TIMEOUT_MS)) continue;
        return 'timeout';
      }
    }
  } finally {
    sandbox.text = '';
  }
}

/** Runs of a pattern stopped by the clock rather than by its own work (`stoppedByLoad`) before it counts as a timeout. */
const PATTERN_TRIES = 3;

/** Whether a run stopped after `timeoutMs` of wall time had used under half of it on the CPU (the process was waiting). */
export function stoppedByLoad(used: NodeJS.CpuUsage, timeoutMs: number): boolean {
  return (used.user + used.system) / 1000 < timeoutMs / 2;
}

/** What a dedup pattern's match gives: its first capture group that took part, else the whole match. */
export function capturedKey(match: RegExpExecArray): string {
  for (let i = 1; i < match.length; i++) if (match[i] !== undefined) return match[i].trim();
  return match[0].trim();
}
