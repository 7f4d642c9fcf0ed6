import { ComingSoon } from '../../../components/ComingSoon.tsx';

export function ProfilePage() {
  return <ComingSoon title="Profile & Settings" />;
}
