import { type Solution, solveChallengeWorkers } from 'altcha-lib';
import type { CaptchaChallenge } from '../../../common/api/auth';
import Pbkdf2Worker from './pbkdf2.worker?worker';

/** Workers solving side by side: each tries every n-th counter, the first to match wins. */
const MAX_WORKERS = 4;

/** Solves a self-hosted challenge in web workers (altcha-lib's); null when stopped or not solved in time. */
export function solveInWorkers(challenge: CaptchaChallenge, controller: AbortController): Promise<Solution | null> {
  return solveChallengeWorkers({
    challenge,
    controller,
    concurrency: Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 1),
    createWorker: () => new Pbkdf2Worker(),
  });
}
