import { useMutation } from '@tanstack/react-query';
import { requestPasswordReset } from '../../../lib/password-reset.ts';

export const useSendResetEmail = () => useMutation({ mutationFn: requestPasswordReset });
