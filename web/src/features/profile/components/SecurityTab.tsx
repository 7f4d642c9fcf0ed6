import { useState } from 'react';
import { Alert, Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MSG } from '../../../../../contract/messages.ts';
import { PASSWORD_MIN } from '../../../../../contract/plans.ts';
import { PROFILE_MSG } from '../../../../../contract/profile.ts';
import { useSignedInMe } from '../../../lib/session.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useChangePassword } from '../api/change-password.ts';
import { useSendResetEmail } from '../api/send-reset-email.ts';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';

function ChangePasswordCard() {
  const me = useSignedInMe();
  const [values, setValues] = useState<Record<Field, string>>({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [done, setDone] = useState(false);
  const change = useChangePassword();

  const set = (f: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const v = e.currentTarget.value;
    setValues((s) => ({ ...s, [f]: v }));
    setErrors((s) => ({ ...s, [f]: undefined, form: undefined }));
    setDone(false);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const { currentPassword, newPassword, confirmPassword } = values;
    if (!currentPassword) return setErrors({ currentPassword: PROFILE_MSG.currentPasswordRequired });
    if (!newPassword) return setErrors({ newPassword: MSG.passwordRequired });
    if (newPassword.length < PASSWORD_MIN) return setErrors({ newPassword: MSG.passwordTooShort });
    if (newPassword !== confirmPassword) return setErrors({ confirmPassword: MSG.passwordsDoNotMatch });
    setErrors({});
    try {
      await change.mutateAsync(values);
      setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields as Partial<Record<Field, string>>);
      else setErrors({ form: err instanceof ApiError && err.status === 429 ? err.message : 'Failed to change password' });
    }
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={submit} noValidate>
        <Stack maw={520}>
          <div>
            <Title order={2} size="h4">Change password</Title>
            <Text size="sm" c="dimmed">
              You stay signed in here; every other device is signed out.
            </Text>
          </div>
          {!me.user.hasPassword ? (
            <Alert color="blue">{PROFILE_MSG.noPasswordYet}</Alert>
          ) : (
            <>
              {done && (
                <Alert color="green" role="status">
                  {PROFILE_MSG.passwordChanged}
                </Alert>
              )}
              {errors.form && (
                <Alert color="red" role="alert">
                  {errors.form}
                </Alert>
              )}
              <PasswordInput label="Current password" autoComplete="current-password" value={values.currentPassword} onChange={set('currentPassword')} error={errors.currentPassword} />
              <PasswordInput
                label="New password"
                autoComplete="new-password"
                description={`At least ${PASSWORD_MIN} characters`}
                value={values.newPassword}
                onChange={set('newPassword')}
                error={errors.newPassword}
              />
              <PasswordInput label="Confirm new password" autoComplete="new-password" value={values.confirmPassword} onChange={set('confirmPassword')} error={errors.confirmPassword} />
              <Group>
                <Button type="submit" loading={change.isPending}>
                  Change Password
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

function ResetEmailCard() {
  const me = useSignedInMe();
  const send = useSendResetEmail();
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack maw={520} align="flex-start">
        <div>
          <Title order={2} size="h4">Password reset</Title>
          <Text size="sm" c="dimmed">
            Forgotten your current password? We email {me.user.email} a link to choose a new one.
          </Text>
        </div>
        {send.isSuccess && (
          <Alert color="green" role="status" w="100%">
            {send.data.message}
          </Alert>
        )}
        {send.isError && (
          <Alert color="red" role="alert" w="100%">
            {MSG.resetEmailFailed}
          </Alert>
        )}
        <Button variant="light" onClick={() => send.mutate(me.user.email)} loading={send.isPending}>
          Send password reset email
        </Button>
      </Stack>
    </Paper>
  );
}

/** Security: change password (ends other sessions), the reset email, last sign-in and account-created times. */
export function SecurityTab() {
  const me = useSignedInMe();
  return (
    <Stack>
      <ChangePasswordCard />
      <ResetEmailCard />
      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="md">
          Account
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} maw={520}>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Last sign-in
            </Text>
            <Text data-testid="last-sign-in">{formatDateTime(me.user.lastSignInAt)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Account created
            </Text>
            <Text data-testid="account-created">{formatDateTime(me.user.createdAt)}</Text>
          </div>
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
