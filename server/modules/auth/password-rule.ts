import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import {
  checkPassword,
  type PasswordContext,
  type PasswordError,
  passwordReadings,
  PORTAL_NAME_WORDS,
} from '../../../common/password';
import { invalidField } from '../../validation';

/**
 * The password rule as the server applies it wherever a password is set (decision 085): common/'s
 * rule (characters, nothing made of the account's context), then no common or breached password.
 * zxcvbn-ts's common dictionary (about 49,000 passwords from breaches, shipped in the package)
 * answers both ways: a password that, once its simple variations are undone (case, leetspeak,
 * digits and symbols around it), is one of them; and a password zxcvbn estimates guessable in
 * fewer than 10^8 guesses (its score 3), the account's context counting as known words.
 */

/** zxcvbn's score a password needs: 3 is "safely unguessable" against a slow hash offline. */
const PASSWORD_MIN_SCORE = 3;
/** Only the first characters are estimated: the estimate's cost grows with the square of the length. */
const ESTIMATED_LENGTH = 64;
/** A reading shorter than this says too little to be compared with the list. */
const READING_MIN_LENGTH = 4;

let loaded: { estimator: ZxcvbnFactory; passwords: Set<string> } | undefined;

/** Built at the first password set, not at start: the dictionaries take a moment to index. */
function estimator() {
  loaded ??= {
    estimator: new ZxcvbnFactory({
      dictionary,
      graphs: adjacencyGraphs,
      maxLength: ESTIMATED_LENGTH,
    }),
    passwords: new Set(dictionary['passwords-common'].map((word) => word.toLowerCase())),
  };
  return loaded;
}

/** What zxcvbn takes as the user's own words. */
function userInputs(context: PasswordContext): string[] {
  const words: string[] = [...PORTAL_NAME_WORDS];
  if (context.email) words.push(context.email, ...context.email.split(/[@._+-]/).filter((part) => part.length >= 3));
  for (const name of context.names ?? []) if (name) words.push(name, ...name.split(/\s+/).filter((w) => w.length >= 3));
  return words;
}

/** The first rule the password breaks, or null when it may be set. */
export function passwordProblem(password: string, context: PasswordContext): PasswordError | null {
  const rule = checkPassword(password, context);
  if (rule) return rule;
  const { estimator: zxcvbn, passwords } = estimator();
  const readings = passwordReadings(password).filter((reading) => reading.length >= READING_MIN_LENGTH);
  if (readings.some((reading) => passwords.has(reading))) return 'password.error.common';
  const estimate = zxcvbn.check(password, userInputs(context));
  if (estimate.score >= PASSWORD_MIN_SCORE) return null;
  const personal = estimate.sequence.some(
    (match) => match.pattern === 'dictionary' && match.dictionaryName === 'userInputs',
  );
  return personal ? 'password.error.personal' : 'password.error.common';
}

/** Refuses a password that breaks the rule: 400 on the `password` field, with the rule's key. */
export function assertPasswordAcceptable(password: string, context: PasswordContext, field = 'password'): void {
  const problem = passwordProblem(password, context);
  if (problem) throw invalidField(field, problem);
}
