import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconNote } from '@tabler/icons-react';
import type { AlertDetail } from '../../../../../contract/alerts.ts';
import { formatDateTime } from '../../../lib/dates.ts';

/**
 * The alert's notes, and the form to add one when the server allows it. `onAdd` sends the text and calls `added`
 * once it is saved, which empties the form; `busy` is any action of the alert running.
 */
export function AlertNotes({ notes, canAdd, busy, adding, onAdd }: { notes: AlertDetail['notes']; canAdd: boolean; busy: boolean; adding: boolean; onAdd: (text: string, added: () => void) => void }) {
  const [noteText, setNoteText] = useState('');
  return (
    <div>
      <Title order={4} mb="xs">
        Notes
      </Title>
      <Stack gap="xs" data-testid="alert-notes">
        {notes.length === 0 && (
          <Text size="sm" c="dimmed">
            No notes yet
          </Text>
        )}
        {notes.map((n) => (
          <Paper key={n.id} withBorder p="xs" radius="md" data-testid="alert-note">
            <Text size="sm" className="pre-wrap">
              {n.text}
            </Text>
            <Text size="xs" c="dimmed" mt={4}>
              {n.createdByName} · {formatDateTime(n.createdAt)}
            </Text>
          </Paper>
        ))}
      </Stack>
      {canAdd && (
        <Stack gap="xs" mt="sm">
          <Textarea label="Add a note" placeholder="What did you find or do?" autosize minRows={2} maxRows={8} value={noteText} onChange={(e) => setNoteText(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button leftSection={<IconNote size={16} />} disabled={!noteText.trim() || busy} loading={adding} onClick={() => onAdd(noteText, () => setNoteText(''))}>
              Add Note
            </Button>
          </Group>
        </Stack>
      )}
    </div>
  );
}
