import { describe, expect, it } from 'vitest';
import { addressRefusal, isIpAddress } from './address';

/** Which addresses a delivery may reach (docs/webhooks.md), with and without WEBHOOKS_ALLOW_PRIVATE. */
describe('webhook address rules', () => {
  const open = (ip: string) => addressRefusal(ip, false);
  const allowingPrivate = (ip: string) => addressRefusal(ip, true);

  it('lets public unicast addresses through, IPv4 and IPv6', () => {
    for (const ip of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '[2001:4860:4860::8888]']) {
      expect(open(ip), ip).toBeNull();
    }
  });

  it('refuses private, shared and loopback addresses unless allowed', () => {
    for (const ip of ['10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '127.0.0.1', '::1', 'fd00::1']) {
      expect(open(ip), ip).toMatch(/WEBHOOKS_ALLOW_PRIVATE is off$/);
      expect(allowingPrivate(ip), ip).toBeNull();
    }
  });

  it('never reaches link-local, unspecified, broadcast, multicast or reserved addresses', () => {
    for (const ip of [
      '169.254.169.254',
      'fe80::1',
      '0.0.0.0',
      '0.1.2.3',
      '::',
      '255.255.255.255',
      '224.0.0.1',
      'ff02::1',
      '240.0.0.1',
      '192.0.2.10',
    ]) {
      expect(allowingPrivate(ip), ip).not.toBeNull();
    }
    expect(allowingPrivate('169.254.169.254')).toBe('169.254.169.254 is a link-local address');
  });

  it('judges an IPv6 address that carries an IPv4 one by that address; Teredo is refused', () => {
    expect(open('::ffff:127.0.0.1')).toMatch(/^127\.0\.0\.1 is a loopback address/);
    expect(allowingPrivate('::ffff:169.254.169.254')).toMatch(/link-local/);
    expect(allowingPrivate('64:ff9b::a9fe:a9fe')).toMatch(/leads to 169\.254\.169\.254 is a link-local address/);
    expect(open('2002:0a00:0001::1')).toMatch(/leads to 10\.0\.0\.1 is a private address/);
    expect(open('64:ff9b::5db8:d70e')).toBeNull();
    expect(allowingPrivate('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toMatch(/teredo/);
  });

  it('tells an address from a name', () => {
    expect(isIpAddress('127.0.0.1')).toBe(true);
    expect(isIpAddress('::1')).toBe(true);
    expect(isIpAddress('localhost')).toBe(false);
    expect(open('localhost')).toBe('localhost is not an IP address');
  });
});
