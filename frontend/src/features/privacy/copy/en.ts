// Defines the shape the Dutch copy is typed against; with the page, so the home page does not download it.
export const en = {
  title: 'Privacy notice',
  updated: 'Last updated: {date}',
  intro:
    '{brand} keeps as little about you as it can. This notice says what we keep when you join the waitlist, why and for how long, and what you can ask of us.',
  summary: {
    title: 'In short',
    items: {
      data: 'We keep your email address and what we need to handle it, such as your language and when you signed up.',
      purpose:
        'We use it only to confirm your signup and to tell you when {brand} launches: no newsletter, no advertising.',
      retention:
        "Your address is deleted once we have told you we launched, or when you leave, after 12 months at the latest; if you don't confirm, after {days} days.",
      storage:
        'It is stored at Amazon Web Services on our behalf and shared with no one else. No cookies, no trackers.',
      rights:
        'Leaving takes one click from any of our emails, or use the form below; for anything else, email {email}.',
    },
  },
  controller: {
    title: 'Who is responsible',
    body: '{controller} is responsible for the personal data described here (the “controller” under the GDPR). You can reach us at {email}.',
    /** Only when the site's config names them (config/site.ts, controller). */
    postalAddress: 'Our postal address: {address}.',
    kvkNumber: 'Registered with the Dutch Chamber of Commerce (KvK) under number {number}.',
  },
  data: {
    title: 'What we keep',
    lead: 'When you join the waitlist, we store:',
    items: {
      email: 'your email address, as you typed it',
      language: 'the language you signed up in (Dutch or English), so that we write to you in it',
      createdAt: 'the date and time you signed up',
      consentVersion: 'which version of the text with the signup form you agreed to',
      confirmation:
        'whether you have confirmed your signup, and if so, when, and which version of that text you confirmed',
      mails: 'when we sent you a confirmation email, and how many (at most {max})',
      tokenHash:
        'a one-way fingerprint of the code in each confirmation link we sent you, to recognise a link when you use it. We never keep a link itself, so what we keep cannot confirm anything',
      undeliverable:
        'if an email to you could not be delivered for good, or you marked one of ours as spam: that it happened and when, so that we never email you again',
      leaveKey:
        'a random key that makes your personal link to leave the waitlist, the same in every email we send you',
      leaveRequested: 'when you last asked for a link to leave with the form on this page',
      announcements: 'which announcements we sent you, so that you never get one twice',
      source: 'where you came from, if the link you came by said so: see “What we count” below',
    },
    nothingElse: 'With your address we store nothing else: no name, no IP address.',
  },
  purpose: {
    title: 'Why we keep it',
    body: 'Only to send you one email to confirm your signup, and then to email you when {brand} launches; and, if you ask for it, a link to leave the waitlist. We send you nothing else: no newsletter, no advertising.',
    confirmation:
      "Your signup is pending until you press the button on the page the link in that email opens; opening the link alone confirms nothing. That way nobody can put someone else's address on the list. If you sign up again before you have confirmed, we send you a new link (at most {max} emails in all), in the language of your first signup; the links you already have keep working until they expire.",
    basis:
      'We do this with your consent (Article 6(1)(a) GDPR), which you give by signing up and confirming. You can withdraw it at any time; what we did before stays lawful.',
  },
  retention: {
    title: 'How long we keep it',
    pending:
      'A signup you do not confirm is deleted automatically {days} days after we sent you the latest confirmation email.',
    body: 'Once you have confirmed, until we have told you that {brand} has launched, or until you leave the waitlist, whichever comes first. If {brand} has not launched 12 months after you signed up, your address is deleted automatically on that date anyway.',
  },
  storage: {
    title: 'Where it is kept',
    body: 'The waitlist is stored in a database at Amazon Web Services (AWS), which hosts this site and keeps the data only on our behalf. We do not sell your address, and we share it with no one else.',
    mail: 'We send our emails through Amazon Simple Email Service (SES), part of AWS too, which handles your address only to deliver them.',
  },
  limits: {
    title: 'Limits against misuse',
    body: "So that nobody can use our form to flood someone's inbox, we send at most {perMailbox} emails that were asked for (confirmation emails and links to leave, together) in any 24 hours to one mailbox, however its address is written (with or without a +tag, and at Gmail with or without dots). To count them we keep a one-way fingerprint of the mailbox, never the address, with the times of those emails, until 24 hours after the last one; then it is deleted automatically. Our hosting's firewall also counts, for one minute at a time, how many signups come from one IP address, and holds back a connection that sends more than {perClient} a minute; we do not keep those addresses. We do this because we have a legitimate interest in a waitlist that cannot be turned against anyone.",
    undeliverable:
      'If an email to you bounces for good, or you mark one of ours as spam, we send nothing more to that mailbox, however its address is written, and take you off the waitlist. So that this holds after your signup is gone too, we keep a one-way fingerprint of the mailbox (never the address) with that mark for good. Your signup keeps the mark only until it would have expired anyway, so that nobody can put your address on the list again.',
  },
  logs: {
    title: 'Website logs',
    body: 'To trace faults, our hosting records how the waitlist answered each request: when, the outcome and how long it took. These records hold no IP address and no email address, and are deleted automatically after 90 days. We keep these records because we have a legitimate interest in a site that works.',
  },
  counting: {
    title: 'What we count',
    visits:
      "To know whether this site works, we count how many people open its two home pages, the Dutch and the English one: a number per day and per language, and nothing else. Once a home page has loaded, a few lines of our own script tell our server so. To count you once a day however often you come back, the server makes a one-way fingerprint of your IP address and your browser's name together with a random value that changes every day, and keeps only that fingerprint, until the day is over. Your IP address and your browser's name themselves are not stored anywhere, not even in our logs. The day's random value is never used after that day: the next day's first visit replaces it, and it is deleted automatically. Without it nobody, not even we, can tell whose a fingerprint was, or link it to another day. Robots that say so are not counted, and neither are visits without JavaScript.",
    source:
      'When you join the waitlist, we also keep where you came from, if the link you came by said so: the campaign values in its address (utm_source, utm_medium and utm_campaign, such as “newsletter”), and the name of the website that linked to us (such as “instagram.com”), never a full address or a page on it. Anything else in a link we do not keep. That way we see which of our posts and flyers work, and nothing more about you.',
    noCookie: 'No cookie is set for any of this, so there is nothing to agree to.',
    basis:
      'We do this because we have a legitimate interest in knowing whether our page and our posts reach people.',
  },
  browser: {
    title: 'Cookies and your browser',
    body: "This site sets no cookies and uses no trackers and no one else's analytics scripts; how we count visits is under “What we count”. The only thing it keeps in your browser is your language choice, in local storage under the name {key}, so that your next visit opens in your language. It never leaves your browser, and you can clear it in your browser's settings.",
  },
  leave: {
    title: 'Leaving the waitlist',
    link: 'Every email we send you has a personal link to leave the waitlist. Open it and press the button on the page it opens: we take you off the list at once, delete your address and never email you again. Opening the link alone changes nothing. If your mail program shows an “unsubscribe” button for our email, it does the same in one click.',
    form: "No email from us at hand? Enter your address here and we'll email you a link to leave (at most one every {minutes} minutes). So that nobody can find out who is on the list, we give the same answer for every address.",
    counted: 'Of the people who leave, we keep only the number, without any address.',
    emailLabel: 'Your email address',
    submit: 'Email me a link to leave',
    sending: 'Sending…',
    requested: {
      body: 'If this address is on the waitlist, an email with a link to leave is on its way.',
      next: 'Check your inbox, and your spam folder too. The link works for as long as you are on the list.',
    },
    failed: 'Something went wrong. Please try again.',
  },
  rights: {
    title: 'Your rights',
    lead: 'You can ask us to:',
    items: {
      access: 'show you the data we keep about you (access)',
      rectification: 'correct it (rectification)',
      erasure: 'delete it (erasure)',
      withdraw: 'stop using it: that withdraws your consent, and we delete your address',
    },
    leave:
      'To be deleted, or to withdraw your consent, leave the waitlist as described above: it takes one click.',
    howTo:
      'For anything else, such as seeing or correcting what we keep, or a question, email {email} from the address you signed up with. We answer within one month.',
    complaint:
      'If you are unhappy with how we handle your data, you can complain to the Dutch data protection authority, the {authority}.',
    authority: 'Autoriteit Persoonsgegevens',
  },
};

export type PrivacyCopy = typeof en;
