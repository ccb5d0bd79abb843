import { Suspense } from 'react';
import { PageTitle } from '@/components/ui/page-title';
import { SignUpForm } from './sign-up-form';

export default function SignUpPage() {
  return (
    <main className="sign-in">
      <PageTitle name="Create an account" />
      <div className="sign-in-card">
        <h1>Create an account</h1>
        <p className="muted">
          A listener account of the Music Catalogue: find songs, build playlists and share them.
        </p>
        <Suspense>
          <SignUpForm />
        </Suspense>
      </div>
    </main>
  );
}
