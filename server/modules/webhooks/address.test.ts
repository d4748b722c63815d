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

  it("never reaches a cloud provider's metadata service, whatever the private rule says", () => {
    for (const ip of ['168.63.129.16', '100.100.100.200', 'fd00:ec2::254', '[fd00:ec2::254]', 'fd20:ce::254']) {
      expect(open(ip), ip).toMatch(/is a cloud metadata address$/);
      expect(allowingPrivate(ip), ip).toMatch(/is a cloud metadata address$/);
    }
    // their neighbours follow the ordinary rules
    expect(open('168.63.129.17')).toBeNull();
    expect(allowingPrivate('100.100.100.201')).toBeNull();
    expect(allowingPrivate('fd00:ec2::253')).toBeNull();
  });

  it('refuses a metadata address in every IPv6 form that carries it', () => {
    for (const ip of ['::ffff:168.63.129.16', '::ffff:a83f:8110', '64:ff9b::a83f:8110', '2002:a83f:8110::1']) {
      expect(allowingPrivate(ip), ip).toMatch(/168\.63\.129\.16 is a cloud metadata address$/);
    }
    expect(allowingPrivate('64:ff9b::100.100.100.200')).toMatch(/leads to 100\.100\.100\.200 is a cloud metadata/);
    expect(allowingPrivate('::ffff:0:6464:64c8')).toMatch(/leads to 100\.100\.100\.200 is a cloud metadata/);
  });

  it('refuses IPv4-compatible and local-use NAT64 addresses, whose IPv4 address cannot be trusted', () => {
    for (const ip of ['::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::808:808']) {
      expect(open(ip), ip).toMatch(/is a deprecated IPv4-compatible address$/);
      expect(allowingPrivate(ip), ip).toMatch(/is a deprecated IPv4-compatible address$/);
    }
    expect(allowingPrivate('64:ff9b:1::7f00:1')).toBe('64:ff9b:1::7f00:1 is a local-use NAT64 address');
    // the unspecified and loopback addresses keep their own reasons
    expect(allowingPrivate('::')).toMatch(/unspecified/);
    expect(open('::1')).toMatch(/loopback/);
    expect(allowingPrivate('::1')).toBeNull();
  });

  it('refuses the translated and 6to4 forms of each refused IPv4 address', () => {
    expect(open('::ffff:0:7f00:1')).toMatch(/leads to 127\.0\.0\.1 is a loopback address/);
    expect(allowingPrivate('::ffff:0:a9fe:a9fe')).toMatch(/leads to 169\.254\.169\.254 is a link-local address/);
    expect(allowingPrivate('2002:a9fe:a9fe::')).toMatch(/leads to 169\.254\.169\.254 is a link-local address/);
    expect(open('2002:7f00:1::')).toMatch(/leads to 127\.0\.0\.1 is a loopback address/);
    expect(allowingPrivate('64:ff9b::e000:1')).toMatch(/leads to 224\.0\.0\.1 is a multicast address/);
  });

  it('tells an address from a name', () => {
    expect(isIpAddress('127.0.0.1')).toBe(true);
    expect(isIpAddress('::1')).toBe(true);
    expect(isIpAddress('localhost')).toBe(false);
    expect(open('localhost')).toBe('localhost is not an IP address');
  });
});
