import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, PasswordInput, Radio, SimpleGrid, Stack, Stepper, Text, TextInput } from '@mantine/core';
import { IconBrandGoogle, IconCircleCheck } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '../../../../../contract/messages.ts';
import { PASSWORD_MIN, REGISTRATION_REDIRECT_MS } from '../../../../../contract/plans.ts';
import { ApiError } from '../../../lib/api.ts';
import { usePublicPlans } from '../../../lib/public-plans.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useServerConfig } from '../../../lib/server-config.ts';
import { useRegister, useRegisterGoogle } from '../api/auth.ts';

type Step1Field = 'email' | 'displayName' | 'password' | 'confirm';

/** Step 1 checks of spec section 5, in the spec's order; the first failure is the one shown. */
export function validateStep1(v: { email: string; displayName: string; password: string; confirm: string }): [Step1Field, string] | null {
  if (!v.email.trim()) return ['email', MSG.emailRequired];
  if (!v.displayName.trim()) return ['displayName', MSG.nameRequired];
  if (!v.password) return ['password', MSG.passwordRequired];
  if (v.password.length < PASSWORD_MIN) return ['password', MSG.passwordTooShort];
  if (v.password !== v.confirm) return ['confirm', MSG.passwordsDoNotMatch];
  return null;
}

/** What step 2 holds while the person signs in with Google (the identity provider's round trip reloads the page). */
const GOOGLE_PENDING = 'alertdesk.googleRegistration';

function pendingGoogleRegistration(): { orgName: string; plan: string } {
  try {
    const saved = JSON.parse(sessionStorage.getItem(GOOGLE_PENDING) ?? '{}') as { orgName?: unknown; plan?: unknown };
    return { orgName: typeof saved.orgName === 'string' ? saved.orgName : '', plan: typeof saved.plan === 'string' ? saved.plan : '' };
  } catch {
    return { orgName: '', plan: '' };
  }
}

/**
 * The two-step registration wizard. In Google mode (after returning from the identity provider without a tenant)
 * it opens on step 2, with the organization name and plan chosen before leaving, and registers the organization for
 * the signed-in Google user. `initialPlan` (a plan chosen on the home page) is preselected when it is public.
 */
export function RegistrationWizard({
  googleMode = false,
  initialPlan = null,
  onCancel,
  onSubmitting,
}: {
  googleMode?: boolean;
  initialPlan?: string | null;
  onCancel: () => void;
  onSubmitting?: () => void;
}) {
  const [step, setStep] = useState(googleMode ? 1 : 0);
  const [values, setValues] = useState(() => {
    const pending = googleMode ? pendingGoogleRegistration() : { orgName: '', plan: '' };
    return { email: '', displayName: '', password: '', confirm: '', orgName: pending.orgName, plan: pending.plan || (initialPlan ?? '') };
  });
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [success, setSuccess] = useState(false);
  const plans = usePublicPlans();
  const config = useServerConfig();
  const register = useRegister();
  const registerGoogle = useRegisterGoogle();
  const navigate = useNavigate();
  const qc = useQueryClient();

  // The plan chosen on the home page, else the default plan, is preselected (a plan that is not public is not).
  useEffect(() => {
    if (plans.data?.length && !plans.data.some((p) => p.id === values.plan)) {
      const def = plans.data.find((p) => p.isDefault) ?? plans.data[0];
      setValues((v) => ({ ...v, plan: def.id }));
    }
  }, [plans.data, values.plan]);

  const set = (field: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (error?.field === field) setError(null);
  };
  const fieldError = (f: string) => (error?.field === f ? error.message : undefined);

  const next = () => {
    const failed = validateStep1(values);
    if (failed) return setError({ field: failed[0], message: failed[1] });
    setError(null);
    setStep(1);
  };

  const step2Error = (): [string, string] | null => {
    if (!values.orgName.trim()) return ['orgName', MSG.orgNameRequired];
    if (!values.plan) return ['plan', MSG.selectPlan];
    return null;
  };

  const succeed = async () => {
    sessionStorage.removeItem(GOOGLE_PENDING);
    setSuccess(true);
    onSubmitting?.();
    await qc.invalidateQueries({ queryKey: queryKeys.me });
    setTimeout(() => navigate('/app/dashboard', { replace: true }), REGISTRATION_REDIRECT_MS);
  };

  const complete = async () => {
    const failed = step2Error();
    if (failed) return setError({ field: failed[0], message: failed[1] });
    setFormError(null);
    try {
      await register.mutateAsync({
        userData: { email: values.email.trim(), password: values.password, displayName: values.displayName.trim() },
        tenantData: { name: values.orgName.trim(), plan: values.plan },
      });
      await succeed();
    } catch (e) {
      if (e instanceof ApiError && e.fields['userData.email']) {
        setStep(0);
        setError({ field: 'email', message: e.fields['userData.email'] });
      }
      setFormError(e instanceof ApiError && e.message ? e.message : MSG.registrationFailed);
    }
  };

  const completeGoogle = async () => {
    const failed = step2Error();
    if (failed) return setError({ field: failed[0], message: failed[1] });
    setFormError(null);
    try {
      await registerGoogle.mutateAsync({ tenantData: { name: values.orgName.trim(), plan: values.plan } });
      await succeed();
    } catch (e) {
      setFormError(e instanceof ApiError && e.status !== 0 && e.message ? e.message : MSG.googleRegistrationFailed);
    }
  };

  /** Step 2 with Google instead of a password: keep the organization and plan, then sign in at the provider. */
  const startGoogle = () => {
    const failed = step2Error();
    if (failed) return setError({ field: failed[0], message: failed[1] });
    sessionStorage.setItem(GOOGLE_PENDING, JSON.stringify({ orgName: values.orgName.trim(), plan: values.plan }));
    window.location.assign('/api/auth/oidc/start');
  };
  const oidcEnabled = config.data?.oidcEnabled ?? false;

  if (success) {
    return (
      <Alert color="green" icon={<IconCircleCheck />} title="Welcome to Alertdesk" data-testid="registration-success">
        {MSG.registrationSuccess}
      </Alert>
    );
  }

  const busy = register.isPending || registerGoogle.isPending;
  return (
    <Stack>
      <Stepper active={step} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label="Your account" description="Name, email, password" />
        <Stepper.Step label="Your organization" description="Name and plan" />
      </Stepper>
      {formError && (
        <Alert color="red" role="alert">
          {formError}
        </Alert>
      )}
      {step === 0 ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            next();
          }}
          noValidate
        >
          <Stack>
            <TextInput label="Full name" autoComplete="name" value={values.displayName} onChange={set('displayName')} error={fieldError('displayName')} />
            <TextInput label="Email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={fieldError('email')} />
            <PasswordInput label="Password" autoComplete="new-password" value={values.password} onChange={set('password')} error={fieldError('password')} description={`At least ${PASSWORD_MIN} characters`} />
            <PasswordInput label="Confirm password" autoComplete="new-password" value={values.confirm} onChange={set('confirm')} error={fieldError('confirm')} />
            <Group justify="space-between">
              <Button variant="subtle" onClick={onCancel}>
                Back to sign in
              </Button>
              <Button type="submit">Next</Button>
            </Group>
            {oidcEnabled && <GoogleButton label="Continue with Google" />}
          </Stack>
        </form>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (googleMode) completeGoogle();
            else complete();
          }}
          noValidate
        >
          <Stack>
            <TextInput label="Organization name" value={values.orgName} onChange={set('orgName')} error={fieldError('orgName')} autoFocus />
            <Radio.Group
              label="Plan"
              value={values.plan}
              onChange={(plan) => {
                setValues((v) => ({ ...v, plan }));
                if (error?.field === 'plan') setError(null);
              }}
              error={fieldError('plan')}
            >
              {plans.isPending && <Text c="dimmed">{MSG.loading}</Text>}
              {plans.isError && <Text c="red">Failed to load pricing plans</Text>}
              <SimpleGrid cols={{ base: 1, xs: 2 }} mt="xs">
                {plans.data?.map((p) => (
                  <Radio.Card key={p.id} value={p.id} p="sm" radius="md" data-testid={`plan-${p.id}`}>
                    <Group wrap="nowrap" align="flex-start">
                      <Radio.Indicator />
                      <div>
                        <Group gap={6}>
                          <Text fw={600}>{p.name}</Text>
                          {p.isDefault && (
                            <Badge size="xs" variant="light">
                              Default
                            </Badge>
                          )}
                        </Group>
                        <Text size="sm" c="dimmed">
                          {p.price} · {p.maxUsers} users · {p.maxClients} clients
                        </Text>
                      </div>
                    </Group>
                  </Radio.Card>
                ))}
              </SimpleGrid>
            </Radio.Group>
            <Group justify="space-between">
              {googleMode ? (
                <Button variant="subtle" onClick={onCancel}>
                  Cancel
                </Button>
              ) : (
                <Button variant="default" onClick={() => setStep(0)}>
                  Back
                </Button>
              )}
              {googleMode ? (
                <Button type="submit" loading={busy} leftSection={<IconBrandGoogle size={16} />}>
                  Register with Google
                </Button>
              ) : (
                <Button type="submit" loading={busy}>
                  Complete Registration
                </Button>
              )}
            </Group>
            {!googleMode && oidcEnabled && (
              <Button variant="default" leftSection={<IconBrandGoogle size={16} />} onClick={startGoogle} disabled={busy} fullWidth>
                Register with Google
              </Button>
            )}
          </Stack>
        </form>
      )}
    </Stack>
  );
}

/** The Google button: starts the OpenID Connect flow, or says why it cannot when the server has no client set up. */
/** Sign-in with Google: shown only where the server has it configured (the README says how). */
export function GoogleButton({ label }: { label: string }) {
  return (
    <Button variant="default" leftSection={<IconBrandGoogle size={16} />} component="a" href="/api/auth/oidc/start" fullWidth>
      {label}
    </Button>
  );
}
