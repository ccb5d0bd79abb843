import { PageTitle } from '@/components/ui/page-title';
import { ResetPasswordForm } from './reset-password-form';

export default function ResetPasswordPage() {
  return (
    <main className="sign-in">
      <PageTitle name="Choose a new password" />
      <div className="sign-in-card">
        <h1>Choose a new password</h1>
        <ResetPasswordForm />
      </div>
    </main>
  );
}
