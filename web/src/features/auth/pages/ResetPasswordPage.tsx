import { useState } from 'react';
import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { MSG } from '../../../../../contract/messages.ts';
import { PASSWORD_MIN } from '../../../../../contract/plans.ts';
import { ApiError } from '../../../lib/api.ts';
import { confirmPasswordReset } from '../api/auth.ts';
import { PublicPage } from '../../../components/PublicPage.tsx';

/** Opened from the reset email: choose a new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // Accounts created by a super admin get the same kind of link to choose their first password.
  const welcome = params.get('welcome') === '1';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<{ field: 'password' | 'confirm' | 'form'; message: string } | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!password) return setError({ field: 'password', message: MSG.passwordRequired });
    if (password.length < PASSWORD_MIN) return setError({ field: 'password', message: MSG.passwordTooShort });
    if (password !== confirm) return setError({ field: 'confirm', message: MSG.passwordsDoNotMatch });
    setError(null);
    setBusy(true);
    try {
      await confirmPasswordReset(token, password);
      setDone(true);
    } catch (err) {
      setError({ field: 'form', message: err instanceof ApiError ? err.message : 'Failed to reset password' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicPage title={welcome ? 'Choose your password' : 'Reset password'}>
      <Paper withBorder radius="md" p="xl" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={1} size="h2">{welcome ? 'Welcome to Alertdesk: choose your password' : 'Choose a new password'}</Title>
            {done ? (
              <>
                <Alert color="green">{welcome ? 'Your password is set. Sign in to get started.' : 'Your password has been changed. Sign in with your new password.'}</Alert>
                <Button component={Link} to="/login">
                  Go to sign in
                </Button>
              </>
            ) : (
              <>
                {(!token || error?.field === 'form') && <Alert color="red">{error?.message ?? 'This password reset link is invalid or has expired'}</Alert>}
                <PasswordInput label="New password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={error?.field === 'password' && error.message} />
                <PasswordInput label="Confirm new password" value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} error={error?.field === 'confirm' && error.message} />
                <Button type="submit" loading={busy} disabled={!token}>
                  Set new password
                </Button>
                <Anchor component={Link} to="/login" size="sm" ta="center">
                  Back to sign in
                </Anchor>
              </>
            )}
          </Stack>
        </form>
      </Paper>
    </PublicPage>
  );
}
