import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  type AuditAction,
  CATALOGUE_AUDIT_ACTIONS,
  isAuditAction,
  SETTINGS_AUDIT_ACTIONS,
  SIGNUP_AUDIT_ACTIONS,
  ACCOUNT_AUDIT_ACTIONS,
} from './audit';

describe('audit actions', () => {
  it('names each action once, as a camelCase verb and object', () => {
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    for (const action of AUDIT_ACTIONS) expect(action).toMatch(/^[a-z]+(?:[A-Z][a-z]+)+$/);
  });

  it("keeps the catalogue's actions apart from a customer's, so the recent actions never list them", () => {
    const catalogue: readonly string[] = CATALOGUE_AUDIT_ACTIONS;
    expect(new Set(CATALOGUE_AUDIT_ACTIONS).size).toBe(CATALOGUE_AUDIT_ACTIONS.length);
    for (const action of CATALOGUE_AUDIT_ACTIONS) {
      expect(action).toMatch(/^[a-z]+(?:[A-Z][a-z]+)+$/);
      expect(isAuditAction(action)).toBe(false);
    }
    expect(AUDIT_ACTIONS.filter((action) => catalogue.includes(action))).toEqual([]);
  });

  it("keeps the settings' actions apart from the others, so no customer's recent actions list them", () => {
    const others: readonly string[] = [...AUDIT_ACTIONS, ...CATALOGUE_AUDIT_ACTIONS];
    expect(new Set(SETTINGS_AUDIT_ACTIONS).size).toBe(SETTINGS_AUDIT_ACTIONS.length);
    for (const action of SETTINGS_AUDIT_ACTIONS) {
      expect(action).toMatch(/^[a-z]+(?:[A-Z][a-z]+)+$/);
      expect(others).not.toContain(action);
    }
  });

  it("keeps a sign-up's action apart from the others, so no customer's recent actions list it", () => {
    const others: readonly string[] = [...AUDIT_ACTIONS, ...CATALOGUE_AUDIT_ACTIONS, ...SETTINGS_AUDIT_ACTIONS];
    for (const action of SIGNUP_AUDIT_ACTIONS) {
      expect(action).toMatch(/^[a-z]+(?:[A-Z][a-z]+)+$/);
      expect(others).not.toContain(action);
    }
  });

  it("keeps an account's actions apart from the others, so no customer's recent actions list them", () => {
    const others: readonly string[] = [
      ...AUDIT_ACTIONS,
      ...CATALOGUE_AUDIT_ACTIONS,
      ...SETTINGS_AUDIT_ACTIONS,
      ...SIGNUP_AUDIT_ACTIONS,
    ];
    for (const action of ACCOUNT_AUDIT_ACTIONS) {
      expect(action).toMatch(/^[a-z]+(?:[A-Z][a-z]+)+$/);
      expect(others).not.toContain(action);
    }
  });

  it('tells a known action from anything else', () => {
    expect(isAuditAction('downloadArtifact')).toBe(true);
    expect(isAuditAction('acceptInvitation')).toBe(true);
    expect(isAuditAction('deleteEverything')).toBe(false);
    expect(isAuditAction(undefined)).toBe(false);
  });

  it('refuses an unknown name at compile time', () => {
    // @ts-expect-error not an audit action
    const wrong: AuditAction = 'downloadArtefact';
    expect(isAuditAction(wrong)).toBe(false);
  });
});
