import { useState } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconMailOpened } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import type { MeResponse } from '../../../../../contract/auth.ts';
import { MSG } from '../../../../../contract/messages.ts';
import { MEMBERS_MSG, type InvitationPreview } from '../../../../../contract/members.ts';
import { PASSWORD_MIN } from '../../../../../contract/plans.ts';
import { queryKeys, removeTenantQueries } from '../../../lib/query-keys.ts';
import { rememberTenant, useMe, useSignOut } from '../../../lib/session.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PublicCardPage } from '../../../components/PublicCardPage.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useAcceptInvitation } from '../api/accept-invitation.ts';
import { useDeclineInvitation } from '../api/decline-invitation.ts';
import { useInvitation } from '../api/get-invitation.ts';
import { useRegisterFromInvitation } from '../api/register-from-invitation.ts';
import { useInvitationSignIn } from '../api/sign-in.ts';

const failure = (e: unknown, fallback: string) => (e instanceof ApiError && e.status > 0 && e.status < 500 ? e.message : fallback);

/** Opens the app in the tenant just joined. */
function useEnterTenant() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return async (tenantId: string, me?: MeResponse) => {
    // The joined tenant opens first.
    rememberTenant(tenantId);
    removeTenantQueries(qc);
    if (me) qc.setQueryData(queryKeys.me, me);
    else await qc.invalidateQueries({ queryKey: queryKeys.me });
    navigate('/app/dashboard', { replace: true });
  };
}

/** /invitations/:token, the link of an invitation email: preview, then join as a new or an existing account. */
export function InvitationPage() {
  const { token = '' } = useParams();
  const me = useMe();
  const invitation = useInvitation(token);
  const [declined, setDeclined] = useState(false);

  let body;
  if (invitation.isPending || me.isPending) body = <Loading />;
  else if (declined)
    body = (
      <Stack align="center" ta="center">
        <Title order={1} size="h3">Invitation declined</Title>
        <Text c="dimmed">You will not join this organization. You can close this page.</Text>
      </Stack>
    );
  else if (invitation.isError) {
    const invalid = invitation.error instanceof ApiError && invitation.error.status === 404;
    body = (
      <Stack align="center" ta="center" data-testid="invitation-invalid">
        <Title order={1} size="h3">{invalid ? MEMBERS_MSG.invitationInvalid : 'This invitation could not be loaded.'}</Title>
        <Text c="dimmed">{invalid ? 'Ask the person who invited you to send a new invitation.' : 'Please try again in a moment.'}</Text>
        {invalid ? (
          <Button component={Link} to={me.data ? '/app/dashboard' : '/login'} variant="light">
            {me.data ? 'Go to dashboard' : 'Go to sign in'}
          </Button>
        ) : (
          <Button onClick={() => invitation.refetch()} variant="light">
            Retry
          </Button>
        )}
      </Stack>
    );
  } else body = <InvitationBody token={token} invitation={invitation.data} me={me.data ?? null} onDeclined={() => setDeclined(true)} />;

  return (
    <PublicCardPage title="Invitation">{body}</PublicCardPage>
  );
}

function InvitationBody({ token, invitation, me, onDeclined }: { token: string; invitation: InvitationPreview; me: MeResponse | null; onDeclined: () => void }) {
  const qc = useQueryClient();
  const decline = useDeclineInvitation();
  const roleName = invitation.role === 'admin' ? 'Admin' : 'User';
  const sameAccount = me !== null && me.user.email.toLowerCase() === invitation.email.toLowerCase();

  const doDecline = async () => {
    try {
      await decline.mutateAsync(token);
      await qc.invalidateQueries({ queryKey: queryKeys.me });
      onDeclined();
    } catch {
      // Shown below.
    }
  };

  return (
    <Stack>
      <Stack align="center" ta="center" gap="xs">
        <ThemeIcon size={52} radius="xl" variant="light">
          <IconMailOpened />
        </ThemeIcon>
        <Title order={1} size="h2">Join {invitation.tenantName}</Title>
        <Text c="dimmed" size="sm">
          {invitation.invitedByName ?? 'An administrator'} invited <b>{invitation.email}</b> to join {invitation.tenantName} on Alertdesk as {roleName}.
        </Text>
        <Text c="dimmed" size="xs">
          The invitation expires {formatDateTime(invitation.expiresAt)}.
        </Text>
      </Stack>
      {me && sameAccount ? (
        <AcceptAsSignedIn token={token} />
      ) : me ? (
        <OtherAccount me={me} invitation={invitation} />
      ) : invitation.accountExists ? (
        <SignInAndAccept token={token} email={invitation.email} />
      ) : (
        <RegisterAndJoin token={token} email={invitation.email} />
      )}
      {decline.isError && <Alert color="red">{failure(decline.error, 'The invitation could not be declined. Please try again.')}</Alert>}
      {(!me || sameAccount) && (
        <Button variant="subtle" color="gray" onClick={doDecline} loading={decline.isPending}>
          Decline invitation
        </Button>
      )}
    </Stack>
  );
}

function AcceptAsSignedIn({ token }: { token: string }) {
  const accept = useAcceptInvitation();
  const enter = useEnterTenant();
  const go = async () => {
    try {
      const joined = await accept.mutateAsync(token);
      await enter(joined.tenantId);
    } catch {
      // Shown below.
    }
  };
  return (
    <Stack>
      {accept.isError && (
        <Alert color="red" role="alert">
          {failure(accept.error, 'The invitation could not be accepted. Please try again.')}
        </Alert>
      )}
      <Button onClick={go} loading={accept.isPending} size="md">
        Accept Invitation
      </Button>
    </Stack>
  );
}

function OtherAccount({ me, invitation }: { me: MeResponse; invitation: InvitationPreview }) {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const signOut = useSignOut(() => {
    qc.setQueryData(queryKeys.me, null);
    setBusy(false);
  });
  const out = () => {
    setBusy(true);
    return signOut();
  };
  return (
    <Stack>
      <Alert color="yellow" data-testid="other-account">
        You are signed in as {me.user.email}. This invitation is for {invitation.email}: sign out, then sign in or create an account with that address.
      </Alert>
      <Button onClick={out} loading={busy} variant="light">
        Sign out
      </Button>
    </Stack>
  );
}

function SignInAndAccept({ token, email }: { token: string; email: string }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const signIn = useInvitationSignIn();
  const accept = useAcceptInvitation();
  const enter = useEnterTenant();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!password) return setError(MSG.fillAllFields);
    setError(null);
    // The session is not put into the cache before accepting: this form would be replaced mid-way by the signed-in view.
    try {
      await signIn.mutateAsync({ email, password });
    } catch (err) {
      return setError(failure(err, MSG.authFailed));
    }
    try {
      const joined = await accept.mutateAsync(token);
      await enter(joined.tenantId);
    } catch (err) {
      setError(failure(err, 'The invitation could not be accepted. Please try again.'));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">You already have an Alertdesk account. Sign in to accept.</Text>
        {error && (
          <Alert color="red" role="alert" data-testid="invitation-error">
            {error}
          </Alert>
        )}
        <TextInput label="Email" value={email} readOnly variant="filled" />
        <PasswordInput label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to="/login" size="sm">
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" loading={signIn.isPending || accept.isPending} size="md">
          Sign in and accept
        </Button>
      </Stack>
    </form>
  );
}

function RegisterAndJoin({ token, email }: { token: string; email: string }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<{ field: 'name' | 'password' | 'confirm' | 'form'; message: string } | null>(null);
  const register = useRegisterFromInvitation();
  const enter = useEnterTenant();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError({ field: 'name', message: MSG.nameRequired });
    if (!password) return setError({ field: 'password', message: MSG.passwordRequired });
    if (password.length < PASSWORD_MIN) return setError({ field: 'password', message: MSG.passwordTooShort });
    if (password !== confirm) return setError({ field: 'confirm', message: MSG.passwordsDoNotMatch });
    setError(null);
    try {
      const joined = await register.mutateAsync({ token, displayName: name.trim(), password });
      await enter(joined.tenantId, joined.me);
    } catch (err) {
      setError({ field: 'form', message: failure(err, MSG.registrationFailed) });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">Choose your name and a password to create your account.</Text>
        {error?.field === 'form' && (
          <Alert color="red" role="alert" data-testid="invitation-error">
            {error.message}
          </Alert>
        )}
        <TextInput label="Email" value={email} readOnly variant="filled" />
        <TextInput label="Full name" autoComplete="name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={error?.field === 'name' && error.message} />
        <PasswordInput label="Password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={error?.field === 'password' && error.message} />
        <PasswordInput label="Confirm password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} error={error?.field === 'confirm' && error.message} />
        <Button type="submit" loading={register.isPending} size="md">
          Create account and join
        </Button>
      </Stack>
    </form>
  );
}
