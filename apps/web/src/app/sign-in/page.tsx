import { Suspense } from 'react';
import { PageTitle } from '@/components/ui/page-title';
import { SignInForm } from './sign-in-form';

export default function SignInPage() {
  return (
    <main className="sign-in">
      <PageTitle name="Sign in" />
      <div className="sign-in-card">
        <h1>Music Catalogue</h1>
        <p className="muted">Sign in to manage the catalogue, your songs or your playlists.</p>
        <Suspense>
          <SignInForm />
        </Suspense>
      </div>
    </main>
  );
}
