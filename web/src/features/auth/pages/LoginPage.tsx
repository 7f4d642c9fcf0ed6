import { useState } from 'react';
import { Alert, Anchor, Button, Divider, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ACCOUNT_THROTTLED, MSG } from '../../../../../contract/messages.ts';
import { ApiError } from '../../../lib/api.ts';
import { PublicPage } from '../../../components/PublicPage.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { requestPasswordReset } from '../../../lib/password-reset.ts';
import { useServerConfig } from '../../../lib/server-config.ts';
import { useMe, useSignIn } from '../../../lib/session.tsx';
import { GoogleButton, RegistrationWizard } from '../components/RegistrationWizard.tsx';
import { SignInLinkOffer } from '../components/SignInLinkOffer.tsx';

/** Only same-site paths are followed after sign-in. */
const safeNext = (next: string | null) => (next && next.startsWith('/app') && !next.startsWith('//') ? next : '/app/dashboard');

export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const googleRegister = params.get('google') === 'register';
  const { data: me, isPending } = useMe();
  // The home page's "Start your free trial" and "Choose Plan" open the wizard (?signup=1), with that plan (?plan=).
  const [mode, setMode] = useState<'signin' | 'register' | 'forgot'>(googleRegister || params.has('signup') ? 'register' : 'signin');
  const [registering, setRegistering] = useState(false);

  if (isPending) return <Loading fullScreen />;
  // A signed-in user goes to the dashboard; one who came back from Google without a tenant finishes registration.
  if (me && !(googleRegister && me.tenants.length === 0) && !registering) return <Navigate to={safeNext(params.get('next'))} replace />;

  return (
    <PublicPage title={mode === 'register' ? 'Create your account' : mode === 'forgot' ? 'Reset your password' : 'Sign in'}>
      <Stack w="100%" align="center" gap="lg">
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} w="100%" maw={mode === 'register' ? 640 : 420}>
          {mode === 'register' ? (
            <Stack>
              <Title order={1} size="h2">{googleRegister ? 'Set up your organization' : 'Create your account'}</Title>
              <RegistrationWizard
                googleMode={googleRegister && !!me}
                initialPlan={params.get('plan')}
                onCancel={() => {
                  setParams({});
                  setMode('signin');
                }}
                onSubmitting={() => setRegistering(true)}
              />
            </Stack>
          ) : mode === 'forgot' ? (
            <ForgotPassword onBack={() => setMode('signin')} />
          ) : (
            <SignInForm onRegister={() => setMode('register')} onForgot={() => setMode('forgot')} googleError={params.get('error') === 'google'} />
          )}
        </Paper>
        <Anchor component={Link} to="/" size="sm">
          ← Back to homepage
        </Anchor>
      </Stack>
    </PublicPage>
  );
}

function SignInForm({ onRegister, onForgot, googleError }: { onRegister: () => void; onForgot: () => void; googleError: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(googleError ? MSG.googleSignInFailed : null);
  // The account (not this address) is throttled: the email refused and the server's message, to offer a sign-in link.
  const [throttled, setThrottled] = useState<{ email: string; message: string } | null>(null);
  const signIn = useSignIn();
  const config = useServerConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) return setError(MSG.fillAllFields);
    setError(null);
    setThrottled(null);
    try {
      await signIn.mutateAsync({ email: email.trim(), password });
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === ACCOUNT_THROTTLED) setThrottled({ email: email.trim(), message: err.message });
      else setError(err instanceof ApiError && err.message ? err.message : MSG.authFailed);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <div>
          <Title order={1} size="h2">Sign in</Title>
          <Text c="dimmed" size="sm">
            Welcome back to Alertdesk.
          </Text>
        </div>
        {error && (
          <Alert color="red" role="alert" data-testid="signin-error">
            {error}
          </Alert>
        )}
        {throttled && <SignInLinkOffer key={throttled.email} email={throttled.email} message={throttled.message} />}
        <TextInput label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <PasswordInput label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
        <Group justify="flex-end" mt={-8}>
          <Anchor component="button" type="button" size="sm" onClick={onForgot}>
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" loading={signIn.isPending} fullWidth>
          Sign In
        </Button>
        {config.data?.oidcEnabled && <GoogleButton label="Sign in with Google" />}
        <Divider label="New to Alertdesk?" labelPosition="center" />
        <Button variant="light" onClick={onRegister} fullWidth>
          Sign Up
        </Button>
      </Stack>
    </form>
  );
}

function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return setError(MSG.emailRequired);
    setError(null);
    setBusy(true);
    try {
      setSent((await requestPasswordReset(email.trim())).message);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 400 ? err.message : MSG.resetEmailFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={1} size="h2">Reset your password</Title>
        <Text c="dimmed" size="sm">
          We will email you a link to choose a new password. The link works once, for one hour.
        </Text>
        {sent && <Alert color="green">{sent}</Alert>}
        <TextInput label="Email" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={error} />
        <Group justify="space-between">
          <Button variant="subtle" onClick={onBack}>
            Back to sign in
          </Button>
          <Button type="submit" loading={busy}>
            Send reset email
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
