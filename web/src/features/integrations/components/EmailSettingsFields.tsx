import { Group, Input, SegmentedControl, Select, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import { ALERT_PRIORITIES, PRIORITY_LABELS, type AlertPriority } from '../../../../../contract/alerts.ts';
import {
  DEFAULT_EMAIL_SETTINGS,
  DEFAULT_PRIORITY_WORDS,
  DEFAULT_RESOLVE_WORDS,
  EMAIL_LIMITS,
  EmailSettingsInput,
  type EmailRuleField,
  type EmailSettings,
} from '../../../../../contract/integrations.ts';

/** The form's copy of an integration's mail rules: patterns as typed, own words (per priority) only when switched on. */
export interface EmailDraft {
  dedupPattern: string;
  dedupField: EmailRuleField;
  resolvePattern: string;
  resolveField: EmailRuleField;
  ownWords: boolean;
  words: Record<AlertPriority, string[]>;
  defaultPriority: AlertPriority;
}

const wordsByPriority = (list: EmailSettings['priorityWords']) => {
  const out = Object.fromEntries(ALERT_PRIORITIES.map((p) => [p, [] as string[]])) as Record<AlertPriority, string[]>;
  for (const w of list ?? DEFAULT_PRIORITY_WORDS) out[w.priority].push(w.word);
  return out;
};

/** The words in the order they are sent (most severe first): what an error's index in `priorityWords` refers to. */
const flatWords = (draft: EmailDraft) => ALERT_PRIORITIES.flatMap((priority) => draft.words[priority].map((word) => ({ word: word.trim(), priority })));

export function emailDraftOf(settings: EmailSettings = DEFAULT_EMAIL_SETTINGS): EmailDraft {
  return {
    dedupPattern: settings.dedupPattern ?? '',
    dedupField: settings.dedupField,
    resolvePattern: settings.resolvePattern ?? '',
    resolveField: settings.resolveField,
    ownWords: settings.priorityWords !== null,
    words: wordsByPriority(settings.priorityWords),
    defaultPriority: settings.defaultPriority,
  };
}

export function emailSettingsOf(draft: EmailDraft): EmailSettingsInput {
  return {
    dedupPattern: draft.dedupPattern.trim() || null,
    dedupField: draft.dedupField,
    resolvePattern: draft.resolvePattern.trim() || null,
    resolveField: draft.resolveField,
    priorityWords: draft.ownWords ? flatWords(draft) : null,
    defaultPriority: draft.defaultPriority,
  };
}

/**
 * The form's errors by the API's field names (`emailSettings.dedupPattern`), checked with the contract's own schema
 * before asking the server; a word's error (`emailSettings.priorityWords.3.word`) is told at its priority's list.
 */
export function emailDraftErrors(draft: EmailDraft, fields?: Record<string, string>): Record<string, string> {
  let found = fields;
  if (!found) {
    const parsed = EmailSettingsInput.safeParse(emailSettingsOf(draft));
    found = {};
    if (!parsed.success) for (const issue of parsed.error.issues) found[['emailSettings', ...issue.path].join('.')] ??= issue.message;
  }
  const words = flatWords(draft);
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(found)) {
    const word = /^emailSettings\.priorityWords\.(\d+)\./.exec(key);
    const at = word ? words[Number(word[1])] : undefined;
    if (at) errors[`emailSettings.words.${at.priority}`] ??= `${at.word || '(empty)'}: ${message}`;
    else errors[key] = message;
  }
  return errors;
}

const FIELDS = [
  { value: 'subject', label: 'Subject' },
  { value: 'body', label: 'Body' },
];
const PRIORITIES = ALERT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));
const DEFAULT_WORDS_TEXT = ALERT_PRIORITIES.map((p) => `${PRIORITY_LABELS[p]}: ${DEFAULT_PRIORITY_WORDS.filter((w) => w.priority === p).map((w) => w.word).join(', ')}`).join(' · ');

/** A pattern with where it searches: the subject or the mail's text. */
function PatternField(props: { label: string; description: string; placeholder: string; value: string; field: EmailRuleField; error?: string; testId: string; onChange: (value: string) => void; onField: (field: EmailRuleField) => void }) {
  return (
    <Stack gap={4}>
      <TextInput
        label={props.label}
        description={props.description}
        placeholder={props.placeholder}
        value={props.value}
        maxLength={EMAIL_LIMITS.patternChars + 50}
        onChange={(e) => props.onChange(e.currentTarget.value)}
        error={props.error}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        data-testid={props.testId}
      />
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          Search in
        </Text>
        <SegmentedControl size="xs" data={FIELDS} value={props.field} onChange={(v) => props.onField(v as EmailRuleField)} aria-label={`${props.label}: search in`} />
      </Group>
    </Stack>
  );
}

/** The mail rules of an integration (its email address turns mail into alerts by these). */
export function EmailSettingsFields({ draft, errors, onChange }: { draft: EmailDraft; errors: Record<string, string>; onChange: (next: EmailDraft) => void }) {
  const set = (patch: Partial<EmailDraft>) => onChange({ ...draft, ...patch });
  return (
    <Stack gap="md" data-testid="email-settings">
      <PatternField
        label="Dedup pattern"
        description="A regular expression: its first group (…) is the dedup key, so mails with the same key update one alert. Empty: the subject without RE:, [RESOLVED]-style prefixes, dates and counters."
        placeholder="Empty: the default rule"
        value={draft.dedupPattern}
        field={draft.dedupField}
        error={errors['emailSettings.dedupPattern']}
        testId="email-dedup-pattern"
        onChange={(dedupPattern) => set({ dedupPattern })}
        onField={(dedupField) => set({ dedupField })}
      />
      <PatternField
        label="Resolve pattern"
        description={`A mail it matches resolves the open alert with the mail's dedup key. Empty: the subject starts with ${DEFAULT_RESOLVE_WORDS.join(', ')}, or ends in “is OK” or “is UP”.`}
        placeholder="Empty: the default rule"
        value={draft.resolvePattern}
        field={draft.resolveField}
        error={errors['emailSettings.resolvePattern']}
        testId="email-resolve-pattern"
        onChange={(resolvePattern) => set({ resolvePattern })}
        onField={(resolveField) => set({ resolveField })}
      />
      <Input.Wrapper label="Priority from the subject" description="The most severe word found in the subject (whole words, any case) sets the priority." error={errors['emailSettings.priorityWords']}>
        <Stack gap="xs" mt={6}>
          <Switch label="Use my own words" checked={draft.ownWords} onChange={(e) => set({ ownWords: e.currentTarget.checked })} data-testid="email-own-words" />
          {!draft.ownWords ? (
            <Text size="xs" c="dimmed" data-testid="email-default-words">
              {DEFAULT_WORDS_TEXT}
            </Text>
          ) : (
            ALERT_PRIORITIES.map((priority) => (
              <TagsInput
                key={priority}
                label={PRIORITY_LABELS[priority]}
                placeholder="Type a word and press Enter"
                value={draft.words[priority]}
                onChange={(words) => set({ words: { ...draft.words, [priority]: words } })}
                maxTags={EMAIL_LIMITS.priorityWords}
                error={errors[`emailSettings.words.${priority}`]}
                clearable
                data-testid={`email-words-${priority}`}
              />
            ))
          )}
        </Stack>
      </Input.Wrapper>
      <Select
        label="Priority when no word is found"
        data={PRIORITIES}
        value={draft.defaultPriority}
        allowDeselect={false}
        onChange={(v) => v && set({ defaultPriority: v as AlertPriority })}
        comboboxProps={{ withinPortal: true }}
        data-testid="email-default-priority"
      />
    </Stack>
  );
}
