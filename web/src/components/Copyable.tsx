import { ActionIcon, Code, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A value to paste elsewhere (a key, a URL, a command; `block` for several lines) with its copy button. */
export function Copyable({ value, label, block = false }: { value: string; label: string; block?: boolean }) {
  return (
    <Group gap={4} wrap="nowrap" className="min-w-0" align={block ? 'flex-start' : 'center'}>
      <Code block={block} className={block ? 'grow min-w-0' : 'wrap-anywhere grow'} style={block ? { overflowX: 'auto' } : undefined} data-testid={`copy-${label}`}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy ${label}`}>
            <ActionIcon variant="subtle" color={copied ? 'green' : 'gray'} onClick={copy} aria-label={`Copy ${label}`}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
