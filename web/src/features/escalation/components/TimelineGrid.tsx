import type { ReactNode } from 'react';
import { Box, Group, Text, Tooltip } from '@mantine/core';
import { SCHEDULE_MSG, TIMELINE_ROW_NAMES, type Timeline } from '../../../../../contract/schedules.ts';
import { formatInZone } from './ScheduleTimes.ts';

/** Narrowest a day may be drawn; below it the grid scrolls sideways (a phone shows about four days at a time). */
const DAY_MIN_PX = 56;
const LABEL_PX = 112;
const ROW_PX = 28;
/** Each person keeps one colour on every row, as in PagerDuty's schedule view (red is kept for nobody on call). */
const PERSON_COLORS = ['blue', 'teal', 'grape', 'orange', 'cyan', 'lime', 'pink', 'indigo', 'yellow', 'green'] as const;

const ms = (iso: string) => Date.parse(iso);

interface Bar {
  key: string;
  start: number;
  end: number;
  color: string;
  text: string;
  label: string;
  testId: string;
  dashed?: boolean;
}

/** One labelled row: the name on the left (kept in view while the days scroll), its stretches in proportion. */
function Row({ name, kind, bars, span, days, strong }: { name: string; kind: string; bars: Bar[]; span: [number, number]; days: Timeline['days']; strong?: boolean }) {
  const [a, b] = span;
  const pct = (t: number) => `${((Math.min(Math.max(t, a), b) - a) / (b - a)) * 100}%`;
  return (
    <Group gap={0} wrap="nowrap" data-testid="timeline-row" data-kind={kind} data-name={name} role="group" aria-label={name}>
      {/* The full row's height, opaque, above the stretches scrolling beneath it. */}
      <Box w={LABEL_PX} h={ROW_PX} pr="xs" className="no-shrink" style={{ position: 'sticky', left: 0, zIndex: 2, background: 'var(--mantine-color-body)', display: 'flex', alignItems: 'center' }}>
        <Text size="xs" fw={strong ? 700 : 600} truncate="end" title={name}>
          {name}
        </Text>
      </Box>
      <Box pos="relative" h={ROW_PX} className="grow" style={{ borderRadius: 4, background: 'var(--mantine-color-default-hover)', overflow: 'hidden' }}>
        {days.slice(1).map((d) => (
          <Box key={d.date} pos="absolute" top={0} bottom={0} left={pct(ms(d.start))} style={{ borderLeft: '1px solid var(--mantine-color-default-border)' }} />
        ))}
        {bars.map((bar) => (
          <Tooltip key={bar.key} label={bar.label} withinPortal multiline maw={280}>
            <Box
              data-testid={bar.testId}
              data-label={bar.text}
              pos="absolute"
              top={2}
              bottom={2}
              left={pct(bar.start)}
              w={`calc(${pct(bar.end)} - ${pct(bar.start)})`}
              px={4}
              style={{
                borderRadius: 3,
                background: `var(--mantine-color-${bar.color}-light)`,
                borderLeft: `3px solid var(--mantine-color-${bar.color}-filled)`,
                outline: bar.dashed ? '1px dashed var(--mantine-color-violet-filled)' : undefined,
                outlineOffset: -1,
                display: 'flex',
                alignItems: 'center',
                overflow: 'hidden',
              }}
            >
              <Text size="xs" truncate="end" c={`var(--mantine-color-${bar.color}-light-color)`}>
                {bar.color === 'red' ? '' : bar.text}
              </Text>
            </Box>
          </Tooltip>
        ))}
      </Box>
    </Group>
  );
}

/** A legend entry drawn like the bars it explains. */
export function Swatch({ color, dashed, children }: { color: string; dashed?: boolean; children: ReactNode }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Box
        w={12}
        h={12}
        style={{
          borderRadius: 2,
          background: `var(--mantine-color-${color}-light)`,
          borderLeft: `3px solid var(--mantine-color-${color}-filled)`,
          outline: dashed ? '1px dashed var(--mantine-color-violet-filled)' : undefined,
        }}
      />
      <Text size="xs" c="dimmed">
        {children}
      </Text>
    </Group>
  );
}

/**
 * The 14 days of a schedule in its own zone as PagerDuty's schedule view draws them: one row per rotation layer
 * (highest first), the weekly shifts, the overrides, and the final schedule they make (overrides outlined, nobody on
 * call in red). Days run left to right; narrower than 14 × 64 px, the rows scroll sideways with their names in view.
 */
export function TimelineGrid({ timeline, userName, now = Date.now() }: { timeline: Timeline; userName: (id: string) => string; now?: number }) {
  const span: [number, number] = [ms(timeline.from), ms(timeline.to)];
  const zone = timeline.timeZone;
  const when = (start: number, end: number) => `${formatInZone(new Date(start).toISOString(), zone)} – ${formatInZone(new Date(end).toISOString(), zone)}`;
  const people = new Map<string, string>();
  const colorOf = (id: string) => {
    if (!people.has(id)) people.set(id, PERSON_COLORS[people.size % PERSON_COLORS.length]);
    return people.get(id)!;
  };
  // Colours in the order people first appear, final row first (so its colours are the steadiest).
  for (const s of timeline.segments) colorOf(s.primary);

  const final: Bar[] = [
    ...timeline.segments.map((s) => {
      const override = s.primaryOverride || s.secondaryOverride;
      const text = `${userName(s.primary)}${s.secondary ? ` · backup ${userName(s.secondary)}` : ''}${override ? ' (override)' : ''}`;
      return { key: `s-${s.start}`, start: ms(s.start), end: ms(s.end), color: colorOf(s.primary), text, label: `${when(ms(s.start), ms(s.end))}: ${text}`, testId: override ? 'timeline-override' : 'timeline-shift', dashed: override };
    }),
    ...timeline.gaps.map((g) => ({ key: `g-${g.start}`, start: ms(g.start), end: ms(g.end), color: 'red', text: SCHEDULE_MSG.nobodyOnCall, label: g.label, testId: 'timeline-gap' })),
  ];
  const rows = timeline.rows.map((r) => ({
    ...r,
    bars: r.segments.map((s) => {
      const text = s.replaces ? `${userName(s.primary)} for ${userName(s.replaces)}` : `${userName(s.primary)}${s.secondary ? ` · backup ${userName(s.secondary)}` : ''}`;
      return { key: `${s.start}-${s.primary}`, start: ms(s.start), end: ms(s.end), color: colorOf(s.primary), text, label: `${when(ms(s.start), ms(s.end))}: ${text}`, testId: 'timeline-row-segment', dashed: !!s.replaces };
    }),
  }));
  const pct = (t: number) => `${((t - span[0]) / (span[1] - span[0])) * 100}%`;

  return (
    <Box style={{ overflowX: 'auto' }} data-testid="timeline-grid" tabIndex={0} aria-label={`Next 14 days in ${zone}`}>
      <Box pb={4} style={{ minWidth: LABEL_PX + timeline.days.length * DAY_MIN_PX }}>
        <Group gap={0} wrap="nowrap" mb={4}>
          <Box w={LABEL_PX} className="no-shrink" style={{ position: 'sticky', left: 0, zIndex: 2, background: 'var(--mantine-color-body)', alignSelf: 'stretch' }} />
          <Box pos="relative" h={32} className="grow">
            {timeline.days.map((d) => {
              const [weekday, date] = d.label.split(', ');
              return (
                <Box key={d.date} pos="absolute" top={0} left={pct(ms(d.start))} w={`calc(${pct(ms(d.end))} - ${pct(ms(d.start))})`} pl={4} style={{ borderLeft: '1px solid var(--mantine-color-default-border)' }}>
                  <Text size="xs" fw={600} lh={1.2} truncate="end">
                    {weekday}
                  </Text>
                  <Text size="xs" c="dimmed" lh={1.2} truncate="end">
                    {date}
                  </Text>
                </Box>
              );
            })}
          </Box>
        </Group>
        <Box pos="relative">
          <Box style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
            {rows.map((r) => (
              <Row key={`${r.kind}-${r.name}`} name={r.name} kind={r.kind} bars={r.bars} span={span} days={timeline.days} />
            ))}
            <Box pt={4} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-testid="timeline-final">
              <Row name={TIMELINE_ROW_NAMES.final} kind="final" bars={final} span={span} days={timeline.days} strong />
            </Box>
          </Box>
          {now > span[0] && now < span[1] && (
            <Box
              data-testid="timeline-now"
              pos="absolute"
              top={0}
              bottom={0}
              style={{ left: `calc(${LABEL_PX}px + (100% - ${LABEL_PX}px) * ${(now - span[0]) / (span[1] - span[0])})`, borderLeft: '2px solid var(--mantine-color-text)', opacity: 0.55, zIndex: 1, pointerEvents: 'none' }}
            />
          )}
        </Box>
      </Box>
    </Box>
  );
}
