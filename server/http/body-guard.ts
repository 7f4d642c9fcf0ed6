import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INPUT_MSG, JSON_LIMITS } from '../../contract/common.ts';
import { AppError, badRequest } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `ingest`: a monitoring tool's event. NUL characters and unpaired surrogates are stripped instead of refused, and
     * a refusal (too deep, forbidden key) is left in `req.bodyProblem` for the route to throw once it has checked the
     * key and the rate limit, so those keep answering first.
     */
    bodyGuard?: 'ingest';
  }
  interface FastifyRequest {
    bodyProblem: AppError | null;
  }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** NUL, and a high surrogate not followed by a low one or a low one not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const BAD_CHARACTERS = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BAD_CHARACTERS_ALL = new RegExp(BAD_CHARACTERS.source, 'g');

export const hasBadCharacters = (s: string) => BAD_CHARACTERS.test(s);
export const stripBadCharacters = (s: string) => (BAD_CHARACTERS.test(s) ? s.replace(BAD_CHARACTERS_ALL, '') : s);

type Segment = string | number;
export interface GuardProblem {
  kind: 'forbiddenKey' | 'tooDeep' | 'badCharacters';
  path: Segment[];
}

interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  key: Segment | null;
}

const pathOf = (frame: Frame | null, tail: Segment[] = []): Segment[] => {
  const out = tail;
  for (let f = frame; f && f.key !== null; f = f.parent) out.unshift(f.key);
  return out;
};

/**
 * One walk over a parsed JSON value, without recursion (a body may be nested thousands of levels deep): finds a
 * prototype key (`__proto__`, `constructor`, `prototype`), a container deeper than JSON_LIMITS.depth (the outermost
 * counting 1), or a NUL character or unpaired UTF-16 surrogate in a string or property name. With `strip`, those
 * characters are removed in place instead (property names too) and only the first two count as problems. Returns
 * the value (a new one only when the root itself is a string that was stripped) and the first problem found.
 */
export function guardJson(root: unknown, mode: 'refuse' | 'strip'): { value: unknown; problem: GuardProblem | null } {
  if (typeof root === 'string') {
    if (!hasBadCharacters(root)) return { value: root, problem: null };
    return mode === 'strip' ? { value: stripBadCharacters(root), problem: null } : { value: root, problem: { kind: 'badCharacters', path: [] } };
  }
  if (!root || typeof root !== 'object') return { value: root, problem: null };
  const stack: Frame[] = [{ value: root, depth: 1, parent: null, key: null }];
  while (stack.length) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string') {
          if (!hasBadCharacters(item)) continue;
          if (mode === 'strip') v[i] = stripBadCharacters(item);
          else return { value: root, problem: { kind: 'badCharacters', path: pathOf(frame, [i]) } };
        } else if (item && typeof item === 'object') {
          if (frame.depth + 1 > JSON_LIMITS.depth) return { value: root, problem: { kind: 'tooDeep', path: pathOf(frame, [i]) } };
          stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: i });
        }
      }
      continue;
    }
    const obj = v as Record<string, unknown>;
    let renamed = false;
    for (const key of Object.keys(obj)) {
      if (FORBIDDEN_KEYS.has(key)) return { value: root, problem: { kind: 'forbiddenKey', path: pathOf(frame, [key]) } };
      let name = key;
      if (hasBadCharacters(key)) {
        if (mode === 'refuse') return { value: root, problem: { kind: 'badCharacters', path: pathOf(frame) } };
        name = stripBadCharacters(key);
        if (FORBIDDEN_KEYS.has(name)) return { value: root, problem: { kind: 'forbiddenKey', path: pathOf(frame, [name]) } };
        renamed = true;
      }
      const item = obj[key];
      if (typeof item === 'string') {
        if (!hasBadCharacters(item)) continue;
        if (mode === 'strip') obj[key] = stripBadCharacters(item);
        else return { value: root, problem: { kind: 'badCharacters', path: pathOf(frame, [key]) } };
      } else if (item && typeof item === 'object') {
        if (frame.depth + 1 > JSON_LIMITS.depth) return { value: root, problem: { kind: 'tooDeep', path: pathOf(frame, [name]) } };
        stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: name });
      }
    }
    if (renamed) {
      // Rebuilt in the same order under the stripped names; when two names become one, the first keeps it.
      const entries = Object.entries(obj);
      for (const [k] of entries) delete obj[k];
      for (const [k, item] of entries) {
        const name = stripBadCharacters(k);
        if (!Object.prototype.hasOwnProperty.call(obj, name)) obj[name] = item;
      }
    }
  }
  return { value: root, problem: null };
}

interface ZodLike {
  _zod?: { def?: { type?: string; shape?: Record<string, ZodLike>; element?: ZodLike; innerType?: ZodLike; in?: ZodLike; getter?: () => ZodLike } };
}

/** The schema under optional / nullable / default / transform wrappers, or null when it is not a zod schema. */
function unwrap(schema: unknown): ZodLike | null {
  let s = schema as ZodLike | undefined;
  for (let i = 0; i < 20 && s?._zod?.def; i++) {
    const def = s._zod.def;
    if (def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else if (def.type === 'lazy' && def.getter) s = def.getter();
    else return s;
  }
  return null;
}

/**
 * The field a too-deep value belongs to: its path cut after the first step where the route's body schema stops
 * describing structure (a free-form record or value, a plain field, or a key the schema does not know), so a
 * 5,000-level `custom_details` is named `payload.custom_details`, not by five thousand segments.
 */
export function fieldOf(schema: unknown, path: Segment[]): string {
  const out: Segment[] = [];
  let s = unwrap(schema);
  for (const seg of path) {
    out.push(seg);
    const def = s?._zod?.def;
    const child = def?.type === 'object' ? def.shape?.[String(seg)] : def?.type === 'array' ? def.element : undefined;
    s = child ? unwrap(child) : null;
    const t = s?._zod?.def?.type;
    if (t !== 'object' && t !== 'array') break;
  }
  return out.length ? out.join('.') : 'body';
}

const refusal = (problem: GuardProblem, schema: unknown) => {
  if (problem.kind === 'forbiddenKey') return badRequest(INPUT_MSG.forbiddenKey, { [fieldOf(schema, problem.path)]: INPUT_MSG.forbiddenKey });
  const message = problem.kind === 'tooDeep' ? INPUT_MSG.tooDeep : INPUT_MSG.badCharacters;
  const field = problem.kind === 'tooDeep' ? fieldOf(schema, problem.path) : problem.path.length ? problem.path.join('.') : 'body';
  return new AppError(400, 'validation_failed', message, { [field]: message });
};

/** A query string or path parameter with a NUL character or an unpaired surrogate (PostgreSQL cannot take a NUL). */
function badParameter(values: unknown): string | null {
  if (!values || typeof values !== 'object') return null;
  for (const [name, v] of Object.entries(values)) {
    if (hasBadCharacters(name)) return 'query';
    const list = Array.isArray(v) ? v : [v];
    for (const item of list) if (typeof item === 'string' && hasBadCharacters(item)) return name;
  }
  return null;
}

/**
 * Every request's body, query string and path parameters pass here before validation (see guardJson): API requests
 * are refused with 400 naming the field; ingestion routes (`config: { bodyGuard: 'ingest' }`) get their strings
 * cleaned and any refusal in `req.bodyProblem`.
 */
export function registerBodyGuard(app: FastifyInstance) {
  app.decorateRequest('bodyProblem', null);
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const ingestion = req.routeOptions.config?.bodyGuard === 'ingest';
    const schema = req.routeOptions.schema?.body;
    if (req.body !== undefined && req.body !== null) {
      const { value, problem } = guardJson(req.body, ingestion ? 'strip' : 'refuse');
      if (value !== req.body) req.body = value;
      if (problem) {
        const err = refusal(problem, schema);
        if (!ingestion) throw err;
        req.bodyProblem = err;
      }
    }
    if (ingestion) return; // the only parameter is the key, which is only ever hashed
    const bad = badParameter(req.params) ?? badParameter(req.query);
    if (bad) throw new AppError(400, 'validation_failed', INPUT_MSG.badCharacters, { [bad]: INPUT_MSG.badCharacters });
  });
}
