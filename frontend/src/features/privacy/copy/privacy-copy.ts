import type { Locale } from '#contract/locales';
import type { EuRegion } from '#contract/site-config';

// With the page, so the home page does not download it; English defines the shape the Dutch is typed against.
const en = {
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
        'It is stored at Amazon Web Services in {country}, in the EU, on our behalf, and shared with no one else. No cookies, no trackers.',
      rights:
        'Leaving takes one click from any of our emails, or use the form below; for anything else, email {email}.',
    },
  },
  controller: {
    title: 'Who is responsible',
    body: '{controller} is responsible for the personal data described here (the “controller” under the GDPR). You can reach us at {email}.',
    /** Only when the site's config names them (config/site.ts, controller). */
    postalAddress: 'Our postal address: {address}.',
    kvkNumber: 'Dutch Chamber of Commerce (KvK) number: {number}.',
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
    body: 'The waitlist is stored in a database at Amazon Web Services (AWS), in its data centres in {country}, in the EU (the AWS region {region}). AWS also hosts this site, and keeps the data only on our behalf. We do not sell your address, and we share it with no one else.',
    mail: 'We send our emails through Amazon Simple Email Service (SES), part of AWS too, in the same region, which handles your address only to deliver them.',
    transfers:
      'Two parts of our hosting also work outside the EU. Everything you send us, your email address when you sign up included, passes through Amazon CloudFront, which delivers this site from the AWS location nearest to you; that can be outside the EU, and what you send only passes through it: it is stored in {country}. The firewall that counts requests per IP address (see “Limits against misuse”) is set up at AWS in the United States (the region us-east-1): AWS offers a firewall for CloudFront only there; it sees IP addresses, but keeps no email address. Where data reaches the United States this way, AWS is certified under the EU-U.S. Data Privacy Framework, which the European Commission has found to protect personal data adequately (Article 45 GDPR), and our data processing agreement with AWS includes the EU standard contractual clauses (Article 46 GDPR).',
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
    counted:
      'Of the people who leave, we keep only the number, without any address, and, so that nobody is counted twice, a one-way fingerprint of the mailbox, which expires after an hour and is then deleted automatically.',
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
  /** The country of each region the site config allows (contract/site-config.ts). */
  countries: {
    'eu-west-1': 'Ireland',
    'eu-central-1': 'Germany',
    'eu-west-3': 'France',
    'eu-north-1': 'Sweden',
    'eu-south-1': 'Italy',
    'eu-south-2': 'Spain',
  } satisfies Record<EuRegion, string>,
};

const nl = {
  title: 'Privacyverklaring',
  updated: 'Laatst bijgewerkt: {date}',
  intro:
    '{brand} bewaart zo weinig mogelijk over je. Hier lees je wat we bewaren als je je aanmeldt voor de wachtlijst, waarom en hoe lang, en wat je van ons mag vragen.',
  summary: {
    title: 'In het kort',
    items: {
      data: 'We bewaren je e‑mailadres en een paar gegevens die we daarvoor nodig hebben, zoals je taal en wanneer je je hebt aangemeld.',
      purpose:
        'We gebruiken het alleen om je aanmelding te bevestigen en om je te laten weten wanneer {brand} van start gaat. Geen nieuwsbrief, geen reclame.',
      retention:
        'We verwijderen je adres zodra we je hebben laten weten dat we van start zijn gegaan, of zodra je je afmeldt, en uiterlijk na 12 maanden. Bevestig je je aanmelding niet, dan verwijderen we het na {days} dagen.',
      storage:
        'Het staat in onze opdracht bij Amazon Web Services in {country}, binnen de EU, en we delen het met niemand anders. Geen cookies, geen trackers.',
      rights:
        'Afmelden doe je met één klik vanuit elke mail van ons, of via het formulier hieronder. Voor al het andere mail je naar {email}.',
    },
  },
  controller: {
    title: 'Wie is verantwoordelijk?',
    body: '{controller} is verantwoordelijk voor de persoonsgegevens in deze verklaring (de ‘verwerkingsverantwoordelijke’ in de zin van de AVG). Je bereikt ons via {email}.',
    postalAddress: 'Ons postadres: {address}.',
    kvkNumber: 'KvK-nummer: {number}.',
  },
  data: {
    title: 'Wat we bewaren',
    lead: 'Als je je aanmeldt voor de wachtlijst, bewaren we:',
    items: {
      email: 'je e‑mailadres, zoals je het hebt ingetypt',
      language: 'de taal waarin je je hebt aangemeld (Nederlands of Engels), zodat we je in die taal mailen',
      createdAt: 'de datum en het tijdstip van je aanmelding',
      consentVersion: 'met welke versie van de tekst bij het aanmeldformulier je akkoord ging',
      confirmation: 'of je je aanmelding hebt bevestigd, en zo ja wanneer en bij welke versie van die tekst',
      mails: 'wanneer we je een bevestigingsmail hebben gestuurd, en hoe vaak (hooguit {max} keer)',
      tokenHash:
        'een onomkeerbare vingerafdruk van de code in elke bevestigingslink die we je stuurden, zodat we de link herkennen als je hem gebruikt. De link zelf bewaren we nooit: met wat wij bewaren, kan niemand iets bevestigen',
      undeliverable:
        'of een mail aan jou definitief niet bezorgd kon worden, of je een mail van ons als spam hebt gemarkeerd, en wanneer dat was, zodat we je nooit meer mailen',
      leaveKey:
        'een willekeurige code voor je persoonlijke afmeldlink, die in elke mail van ons hetzelfde is',
      leaveRequested:
        'wanneer je voor het laatst via het formulier op deze pagina een afmeldlink hebt aangevraagd',
      announcements: 'welke aankondigingen we je hebben gestuurd, zodat je er nooit een dubbel krijgt',
      source: 'hoe je bij ons kwam, als de link waarop je klikte dat aangaf (zie ‘Wat we tellen’ hieronder)',
    },
    nothingElse: 'Verder bewaren we niets bij je adres: geen naam en geen IP-adres.',
  },
  purpose: {
    title: 'Waarvoor we het gebruiken',
    body: 'We gebruiken je adres alleen om je een mail te sturen waarmee je je aanmelding bevestigt, om je te mailen zodra {brand} van start gaat, en om je een afmeldlink te sturen als je daarom vraagt. Verder sturen we je niets: geen nieuwsbrief en geen reclame.',
    confirmation:
      'Je aanmelding telt pas als je de link in die mail opent en op de pagina die dan verschijnt op de knop drukt. Alleen de link openen bevestigt nog niets. Zo kan niemand het adres van een ander op de wachtlijst zetten. Meld je je opnieuw aan voordat je hebt bevestigd? Dan sturen we je een nieuwe link (hooguit {max} mails in totaal), in de taal van je eerste aanmelding. Links die je al hebt, blijven werken tot ze verlopen.',
    basis:
      'We doen dit op basis van je toestemming (artikel 6, lid 1, onder a AVG). Die geef je door je aan te melden en je aanmelding te bevestigen. Je kunt je toestemming altijd intrekken; wat we daarvoor deden, blijft rechtmatig.',
  },
  retention: {
    title: 'Hoe lang we het bewaren',
    pending:
      'Een aanmelding die je niet bevestigt, wordt {days} dagen na de laatste bevestigingsmail automatisch verwijderd.',
    body: 'Heb je bevestigd, dan bewaren we je adres tot we je hebben laten weten dat {brand} van start is gegaan, of tot je je afmeldt als dat eerder is. Is {brand} 12 maanden na je aanmelding nog niet van start gegaan, dan wordt je adres op die dag automatisch verwijderd.',
  },
  storage: {
    title: 'Waar we het bewaren',
    body: 'De wachtlijst staat in een database bij Amazon Web Services (AWS), in datacenters van AWS in {country} (de AWS-regio {region}), binnen de EU. Ook deze website draait bij AWS. AWS bewaart de gegevens alleen in onze opdracht. We verkopen je adres niet en delen het met niemand anders.',
    mail: 'Onze mails gaan via Amazon Simple Email Service (SES), ook een dienst van AWS in dezelfde regio, die je adres alleen gebruikt om ze te bezorgen.',
    transfers:
      'Twee onderdelen van onze hosting werken ook buiten de EU. Alles wat je naar ons stuurt, ook je e‑mailadres als je je aanmeldt, gaat via Amazon CloudFront. Dat netwerk van AWS levert deze website vanaf de locatie die het dichtst bij je is, en die kan buiten de EU liggen. Je gegevens gaan daar alleen doorheen; opgeslagen worden ze in {country}. De firewall die verzoeken per IP-adres telt (zie ‘Maatregelen tegen misbruik’), staat bij AWS in de Verenigde Staten (de regio us-east-1): AWS laat een firewall voor CloudFront alleen daar instellen. Die firewall ziet IP-adressen, maar bewaart geen e‑mailadressen. Komen er op die manier gegevens in de Verenigde Staten terecht, dan mag dat, omdat AWS is gecertificeerd onder het EU-VS-kader voor gegevensbescherming (EU-U.S. Data Privacy Framework), dat volgens de Europese Commissie persoonsgegevens passend beschermt (artikel 45 AVG). Daarnaast bevat onze verwerkersovereenkomst met AWS de standaardcontractbepalingen van de EU (artikel 46 AVG).',
  },
  limits: {
    title: 'Maatregelen tegen misbruik',
    body: 'Om te voorkomen dat iemand via ons formulier andermans inbox laat vollopen, sturen we per 24 uur hooguit {perMailbox} aangevraagde mails (bevestigingsmails en afmeldlinks samen) naar één mailbox, hoe het adres ook geschreven is (met of zonder +toevoeging, en bij Gmail met of zonder punten). Om dat bij te houden, bewaren we een onomkeerbare vingerafdruk van de mailbox (nooit het adres) met de tijdstippen van die mails, tot 24 uur na de laatste. Daarna wordt die automatisch verwijderd. Daarnaast telt de firewall van onze hostingdienst per minuut hoeveel aanmeldingen er van één IP-adres komen, en houdt hij een verbinding tegen die er meer dan {perClient} per minuut stuurt. Die IP-adressen bewaren wij niet. We doen dit omdat we er een gerechtvaardigd belang bij hebben dat niemand de wachtlijst tegen een ander kan gebruiken.',
    undeliverable:
      'Komt een mail aan jou definitief niet aan, of markeer je een mail van ons als spam? Dan sturen we niets meer naar die mailbox, hoe het adres ook geschreven is, en halen we je van de wachtlijst. Zodat dat ook blijft gelden als je aanmelding al is verwijderd, bewaren we voorgoed een onomkeerbare vingerafdruk van de mailbox (nooit het adres) met die markering. Je aanmelding zelf blijft met die markering staan tot ze toch al zou verlopen, zodat niemand je adres intussen opnieuw op de lijst kan zetten.',
  },
  logs: {
    title: 'Logbestanden',
    body: 'Om storingen te kunnen opsporen, houdt onze hostingdienst van elk verzoek aan de wachtlijst bij wanneer het binnenkwam, wat de uitkomst was en hoe lang het duurde. In die logbestanden staan geen IP-adressen en geen e‑mailadressen, en ze worden na 90 dagen automatisch verwijderd. We houden ze bij omdat we er een gerechtvaardigd belang bij hebben dat de site goed werkt.',
  },
  counting: {
    title: 'Wat we tellen',
    visits:
      'Om te weten of deze site werkt, tellen we hoeveel mensen de twee startpagina’s openen, de Nederlandse en de Engelse: één getal per dag en per taal, meer niet. Zodra een startpagina geladen is, meldt ons eigen script (een paar regels code) dat aan onze server. Om je maar één keer per dag te tellen, hoe vaak je ook terugkomt, maakt de server een onomkeerbare vingerafdruk van je IP-adres en de naam van je browser, samen met een willekeurige waarde die elke dag verandert. Alleen die vingerafdruk bewaart hij, en alleen tot het einde van de dag. Je IP-adres en de naam van je browser worden zelf nergens bewaard, ook niet in onze logbestanden. De willekeurige waarde van een dag gebruiken we daarna nooit meer: het eerste bezoek van de volgende dag vervangt haar, en ze wordt automatisch verwijderd. Zonder die waarde kan niemand, ook wij niet, nagaan van wie een vingerafdruk was of hem koppelen aan een andere dag. Robots die zich als robot bekendmaken, tellen we niet mee, en bezoeken zonder JavaScript ook niet.',
    source:
      'Meld je je aan voor de wachtlijst, dan bewaren we ook hoe je bij ons kwam, als de link waarop je klikte dat aangaf: de campagnegegevens in die link (utm_source, utm_medium en utm_campaign, bijvoorbeeld ‘nieuwsbrief’) en de naam van de website die naar ons linkte (bijvoorbeeld ‘instagram.com’), maar nooit een volledig webadres of een pagina van die site. Wat er verder in een link staat, bewaren we niet. Zo zien we welke berichten en flyers van ons werken, en meer zegt het ons niet over jou.',
    noCookie: 'Hiervoor gebruiken we geen cookies, dus je hoeft nergens toestemming voor te geven.',
    basis:
      'We doen dit omdat we er een gerechtvaardigd belang bij hebben om te weten of onze site en onze berichten mensen bereiken.',
  },
  browser: {
    title: 'Cookies en je browser',
    body: 'Deze site plaatst geen cookies en gebruikt geen trackers of analysescripts van anderen. Hoe we bezoeken tellen, lees je onder ‘Wat we tellen’. Het enige wat de site in je browser bewaart, is je taalkeuze: in de lokale opslag (local storage), onder de naam {key}, zodat je bij een volgend bezoek meteen je eigen taal ziet. Die keuze blijft op je eigen apparaat, en je kunt haar wissen via de instellingen van je browser.',
  },
  leave: {
    title: 'Afmelden voor de wachtlijst',
    link: 'In elke mail van ons staat een persoonlijke afmeldlink. Open die link en druk op de knop op de pagina die dan verschijnt: we halen je meteen van de lijst, verwijderen je adres en mailen je nooit meer. Alleen de link openen verandert nog niets. Zie je in je mailprogramma bij onze mail een knop ‘Afmelden’? Die doet hetzelfde, met één klik.',
    form: 'Geen mail van ons bij de hand? Vul hier je adres in, dan mailen we je een afmeldlink (hooguit één per {minutes} minuten). We geven bij elk adres hetzelfde antwoord, zodat niemand kan achterhalen wie er op de lijst staat.',
    counted:
      'Van afmeldingen houden we alleen het aantal bij, zonder adressen. Om niemand dubbel te tellen, bewaren we daarnaast een onomkeerbare vingerafdruk van de mailbox; die verloopt na een uur en wordt daarna automatisch verwijderd.',
    emailLabel: 'Je e‑mailadres',
    submit: 'Stuur me een afmeldlink',
    sending: 'Bezig met versturen…',
    requested: {
      body: 'Staat dit adres op de wachtlijst, dan is er een mail met een afmeldlink naar je onderweg.',
      next: 'Kijk in je inbox, en voor de zekerheid ook in je spammap. De link blijft werken zolang je op de lijst staat.',
    },
    failed: 'Er ging iets mis. Probeer het nog een keer.',
  },
  rights: {
    title: 'Je rechten',
    lead: 'Je kunt ons vragen om:',
    items: {
      access: 'je te laten zien welke gegevens we over je bewaren (inzage)',
      rectification: 'ze te corrigeren (rectificatie)',
      erasure: 'ze te verwijderen (wissen)',
      withdraw: 'ze niet meer te gebruiken: daarmee trek je je toestemming in en verwijderen we je adres',
    },
    leave:
      'Wil je dat we je gegevens verwijderen, of wil je je toestemming intrekken? Meld je dan af zoals hierboven staat. Dat is één klik.',
    howTo:
      'Voor al het andere, zoals inzage of een correctie, of als je een vraag hebt, mail je naar {email} vanaf het adres waarmee je je hebt aangemeld. Je krijgt binnen een maand antwoord.',
    complaint:
      'Ben je niet tevreden over hoe we met je gegevens omgaan? Dan kun je een klacht indienen bij de {authority}.',
    authority: 'Autoriteit Persoonsgegevens',
  },
  countries: {
    'eu-west-1': 'Ierland',
    'eu-central-1': 'Duitsland',
    'eu-west-3': 'Frankrijk',
    'eu-north-1': 'Zweden',
    'eu-south-1': 'Italië',
    'eu-south-2': 'Spanje',
  },
} satisfies typeof en;

export const privacyCopy = { nl, en } satisfies Record<Locale, typeof en>;
