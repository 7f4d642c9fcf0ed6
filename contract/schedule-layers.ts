import { z } from 'zod';
import { requiredString } from './common.ts';

/**
 * Rotation layers of an on-call schedule (issue 27) and the timeline's rows: split from schedules.ts, which re-exports
 * all of it (import from either). Nothing here imports schedules.ts, so the two never load in a cycle.
 */
export const LAYER_LIMITS = { layers: 10, participants: 50, restrictions: 14, layerName: 100 } as const;

/** Our own texts for layers (the spec is silent); SCHEDULE_MSG carries them too. */
export const LAYER_MSG = {
  layerNameRequired: 'Enter a name for the layer',
  layerParticipantsRequired: 'Add at least one person to the layer',
  layerStartInvalid: 'Enter the time of the first handoff',
  layerLengthInvalid: 'A shift lasts 1 to 365 hours, days or weeks',
  layerUnitInvalid: 'Choose hours, days or weeks',
  restrictionDaysRequired: 'Choose at least one day',
  restrictionTimeInvalid: 'Enter a time as HH:mm',
  restrictionEmpty: 'The window must not start and end at the same time',
  tooManyLayers: `A schedule can have at most ${LAYER_LIMITS.layers} layers`,
  layerPersonInvalid: 'Choose a member of this organization',
} as const;

/** An ISO-8601 time with its offset or Z, e.g. 2026-03-08T07:00:00Z. */
export const isIsoTime = (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) && !Number.isNaN(Date.parse(s));

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const hhmm = z.string({ error: LAYER_MSG.restrictionTimeInvalid }).trim().regex(HHMM, LAYER_MSG.restrictionTimeInvalid);
/** "HH:mm" → minutes after midnight. */
export const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/** A window of the week a layer is kept to (issue 27): it starts on each of `days` at `from` and ends at `to` (the next day when earlier). */
export const LayerRestriction = z
  .object({
    days: z.array(z.number({ error: LAYER_MSG.restrictionDaysRequired }).int().min(0).max(6), { error: LAYER_MSG.restrictionDaysRequired }).min(1, LAYER_MSG.restrictionDaysRequired).max(7),
    from: hhmm,
    to: hhmm,
  })
  .refine((r) => r.from !== r.to, { message: LAYER_MSG.restrictionEmpty, path: ['to'] })
  .transform((r) => ({ ...r, days: [...new Set(r.days)].sort((a, b) => a - b) }));
export type LayerRestriction = z.output<typeof LayerRestriction>;

export const SHIFT_UNITS = ['hours', 'days', 'weeks'] as const;

/** A rotation layer (issue 27): participants take turns, handing off every `shiftLength` from `start`. */
export const LayerInput = z.object({
  name: requiredString(LAYER_MSG.layerNameRequired, LAYER_LIMITS.layerName),
  participants: z
    .array(z.string({ error: LAYER_MSG.layerPersonInvalid }).trim().min(1, LAYER_MSG.layerPersonInvalid).max(100, LAYER_MSG.layerPersonInvalid), { error: LAYER_MSG.layerParticipantsRequired })
    .min(1, LAYER_MSG.layerParticipantsRequired)
    .max(LAYER_LIMITS.participants),
  start: z
    .string({ error: LAYER_MSG.layerStartInvalid })
    .trim()
    .refine((v) => isIsoTime(v), LAYER_MSG.layerStartInvalid)
    .transform((v) => new Date(v).toISOString()),
  shiftLength: z.object(
    {
      unit: z.enum(SHIFT_UNITS, { error: LAYER_MSG.layerUnitInvalid }),
      count: z.number({ error: LAYER_MSG.layerLengthInvalid }).int(LAYER_MSG.layerLengthInvalid).min(1, LAYER_MSG.layerLengthInvalid).max(365, LAYER_MSG.layerLengthInvalid),
    },
    { error: LAYER_MSG.layerLengthInvalid },
  ),
  restrictions: z.array(LayerRestriction).max(LAYER_LIMITS.restrictions).default([]),
});
export type LayerInputBody = z.input<typeof LayerInput>;
export type Layer = z.output<typeof LayerInput>;

/** A layer as a schedule answers it. */
export const LayerOut = z.object({
  name: z.string(),
  participants: z.array(z.string()),
  start: z.string(),
  shiftLength: z.object({ unit: z.enum(SHIFT_UNITS), count: z.number().int() }),
  restrictions: z.array(z.object({ days: z.array(z.number().int()), from: z.string(), to: z.string() })),
});

/** One stretch of a timeline row: who (`primary`; the template's backup as `secondary`; an override's `replaces`). */
export const TimelineRowSegment = z.object({
  start: z.string(),
  end: z.string(),
  primary: z.string(),
  secondary: z.string().nullable(),
  /** On the overrides row: the person this override stands in for. */
  replaces: z.string().nullable(),
});
export type TimelineRowSegment = z.infer<typeof TimelineRowSegment>;

/**
 * One row of the timeline beneath the final schedule, as PagerDuty's schedule view draws them: each rotation layer
 * (highest first, the one that wins), the weekday template when it has shifts, then the overrides.
 */
export const TimelineRow = z.object({
  kind: z.enum(['layer', 'template', 'overrides']),
  name: z.string(),
  segments: z.array(TimelineRowSegment),
});
export type TimelineRow = z.infer<typeof TimelineRow>;

/** The names of the rows that are not layers. */
export const TIMELINE_ROW_NAMES = { template: 'Weekly shifts', overrides: 'Overrides', final: 'Final schedule' } as const;
