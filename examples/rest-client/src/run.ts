import type { components } from '@music/sdk';
import type { ApiClient } from './client';
import type { Scenario } from './steps';

export type User = components['schemas']['User'];
export type Artist = components['schemas']['Artist'];
export type Song = components['schemas']['Song'];
export type Playlist = components['schemas']['Playlist'];

/** What every step of one run shares. */
export interface Run {
  apiUrl: string;
  /** Unique to this run: names, emails and search terms carry it, so runs never see each other's data. */
  tag: string;
  scenario: Scenario;
  /** The client without a token (sign-up, sign-in, refresh). */
  anonymous: ApiClient;
}

/** Credentials of an account (the admin's come from the environment). */
export interface Account {
  email: string;
  password: string;
}

/** A signed-in caller: its own client, and the tokens it holds. */
export interface Caller {
  user: User;
  accessToken: string;
  refreshToken: string;
  client: ApiClient;
}
