import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default function SignInPage() {
  return (
    <main className="sign-in">
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
