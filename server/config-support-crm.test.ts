import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { readSupportAndCrm, weakSecret } from './config-support-crm';

/** The settings of the support desk's sign-on, the CRM sync and the telemetry link (docs/configuration.md). */

describe('support desk, CRM and telemetry settings', () => {
  it('fills the telemetry template from TELEMETRY_URL_TEMPLATE, or its older name', () => {
    expect(loadConfig({}).telemetryUrl).toBe('https://telemetry.example.com/customers/{key}');
    expect(
      loadConfig({ TELEMETRY_URL_TEMPLATE: 'https://grafana.example.com/d/c?key={key}&id={id}' }).telemetryUrl,
    ).toBe('https://grafana.example.com/d/c?key={key}&id={id}');
    expect(loadConfig({ TELEMETRY_URL: 'https://old.example.com/{customerKey}' }).telemetryUrl).toBe(
      'https://old.example.com/{customerKey}',
    );
    expect(() => loadConfig({ TELEMETRY_URL_TEMPLATE: 'javascript:alert(1)' })).toThrow(
      /TELEMETRY_URL_TEMPLATE: must be an http\(s\) URL/,
    );
  });

  it('reads the CRM with client credentials, or with a user, and no CRM without its settings', () => {
    expect(loadConfig({}).crm).toBeNull();
    const base = {
      SALESFORCE_LOGIN_URL: 'https://example.my.salesforce.com/',
      SALESFORCE_CLIENT_ID: 'client',
      SALESFORCE_CLIENT_SECRET: 'secret',
    };
    expect(loadConfig(base).crm).toEqual({
      loginUrl: 'https://example.my.salesforce.com',
      clientId: 'client',
      clientSecret: 'secret',
      user: null,
      apiVersion: '62.0',
      syncOnChange: false,
    });
    expect(loadConfig({ ...base, SALESFORCE_USERNAME: 'u@example.com', SALESFORCE_PASSWORD: 'p' }).crm?.user).toEqual({
      username: 'u@example.com',
      password: 'p',
    });
    expect(() => loadConfig({ ...base, SALESFORCE_USERNAME: 'u@example.com' })).toThrow(
      /SALESFORCE_USERNAME and SALESFORCE_PASSWORD must be set together/,
    );
    expect(() => loadConfig({ ...base, SALESFORCE_API_VERSION: 'latest' })).toThrow(/SALESFORCE_API_VERSION/);
    expect(() =>
      loadConfig({
        ...base,
        SALESFORCE_LOGIN_URL: 'http://login.example.com',
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(40),
        SMTP_URL: 'smtp://mail.example.com',
        PAYMENT_TEST_CHECKOUT: 'true',
      }),
    ).toThrow(/SALESFORCE_LOGIN_URL: must be an https URL in production/);
  });

  it('gives the desk its JWT endpoint on its origin, and no secret unless one is set', () => {
    const read = readSupportAndCrm({
      SUPPORT_URL: 'https://help.example.com/hc/en-us',
      SUPPORT_JWT_PATH: '/access/jwt',
    });
    expect(read.settings?.supportDesk).toEqual({
      url: 'https://help.example.com/hc/en-us',
      jwtUrl: 'https://help.example.com/access/jwt',
      jwtSecret: null,
      jwtLifetimeSeconds: 120,
    });
    expect(readSupportAndCrm({ SUPPORT_JWT_PATH: 'access/jwt' }).issues).toEqual([
      'SUPPORT_JWT_PATH: must be a path such as /access/jwt',
    ]);
    expect(weakSecret('0123456789abcdef0123456789abcdef')).toBeNull();
    expect(weakSecret('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).toMatch(/repeated/);
  });
});
