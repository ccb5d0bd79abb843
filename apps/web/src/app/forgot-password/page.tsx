import { PageTitle } from '@/components/ui/page-title';
import { ForgotPasswordForm } from './forgot-password-form';

export default function ForgotPasswordPage() {
  return (
    <main className="sign-in">
      <PageTitle name="Forgot your password" />
      <div className="sign-in-card">
        <h1>Forgot your password?</h1>
        <ForgotPasswordForm />
      </div>
    </main>
  );
}
