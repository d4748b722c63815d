import { expect, test } from './fixtures';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { parseMail } from './helpers/mailbox';

// The journeys read links out of real mails; these checks keep the reading (postal-mime and the link
// extraction around it) honest against what nodemailer (the portal's transport) actually writes.

const LONG_LINK = `http://127.0.0.1:4321/fr/reset-password/${'AbC-_9'.repeat(12)}?a=1&b=2`;

async function encode(message: SendMailOptions): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transport.sendMail(message);
  return (info.message as Buffer).toString('utf8');
}

test('reads recipients, an encoded French subject and a long link from a multipart mail', async () => {
  const raw = await encode({
    from: 'Portal <no-reply@e2e.portal>',
    to: 'Zoé Dupont <Zoe@Example.com>',
    subject: 'Réinitialisez votre mot de passe',
    text: `Bonjour Zoé,\n\nChoisir un nouveau mot de passe : ${LONG_LINK}\n\nÀ bientôt, l’équipe ${'é'.repeat(80)}\n`,
    html: `<p>Bonjour Zoé,</p><p><a href="${LONG_LINK.replace('&', '&amp;')}">Choisir</a></p>`,
  });
  expect(raw).toMatch(/=\r\n/); // the encoder did fold lines, so soft breaks are exercised

  const mail = await parseMail(raw);
  expect(mail.to).toEqual(['zoe@example.com']);
  expect(mail.subject).toBe('Réinitialisez votre mot de passe');
  expect(mail.text).toContain('Bonjour Zoé');
  expect(mail.text).toContain('é'.repeat(80));
  expect(mail.links).toEqual([LONG_LINK]);
});

test('reads a link from an HTML-only mail', async () => {
  const html = `<a href="${LONG_LINK.replace('&', '&amp;')}">go</a>`;
  const raw = await encode({ from: 'a@b.c', to: 'x@y.z', subject: 'Hi', html });
  expect((await parseMail(raw)).links).toEqual([LONG_LINK]);
});
