import { Kbd, Modal, Table } from '@mantine/core';

export const DASHBOARD_KEYS: Array<[string[], string]> = [
  [['j'], 'Next alert'],
  [['k'], 'Previous alert'],
  [['Enter'], 'Open the alert'],
  [['x'], 'Select or unselect the alert'],
  [['a'], 'Acknowledge the alert'],
  [['r'], 'Resolve the alert'],
  [['/'], 'Search'],
  [['?'], 'This list of keys'],
];

/** The dashboard's keyboard shortcuts (opened with ?). */
export function KeyboardHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" closeButtonProps={{ 'aria-label': 'Close dialog' }} data-testid="keyboard-help">
      <Table>
        <Table.Tbody>
          {DASHBOARD_KEYS.map(([keys, what]) => (
            <Table.Tr key={what}>
              <Table.Td w={90}>
                {keys.map((k) => (
                  <Kbd key={k}>{k}</Kbd>
                ))}
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
