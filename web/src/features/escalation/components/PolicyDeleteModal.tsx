import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ESCALATION_MSG, type EscalationPolicy } from '../../../../../contract/escalation.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { ConfirmDeleteModal, type DeleteTexts } from '../../../components/ConfirmDeleteModal.tsx';
import { useDeletePolicy } from '../api/policies.ts';

const TEXTS: DeleteTexts<EscalationPolicy> = { title: 'Delete Policy', question: (p) => ESCALATION_MSG.deleteConfirm(p.name), deleted: ESCALATION_MSG.deleted, failed: MSG.policyDeleteFailed };

/** The delete confirmation of spec section 2: it warns when the policy is the default. */
export function PolicyDeleteModal({ tenantId, policy, onClose }: { tenantId: string; policy: EscalationPolicy | null; onClose: () => void }) {
  return (
    <ConfirmDeleteModal record={policy} remove={useDeletePolicy(tenantId)} texts={TEXTS} onClose={onClose} data-testid="policy-delete">
      {policy?.isDefault && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} data-testid="policy-delete-default-warning">
          {ESCALATION_MSG.deleteDefaultWarning}
        </Alert>
      )}
    </ConfirmDeleteModal>
  );
}
