/** The Komga app runs with the API's request context (config, services, principal) and nothing more. */
import type { AppEnv } from '../env';

export type KomgaEnv = AppEnv;
