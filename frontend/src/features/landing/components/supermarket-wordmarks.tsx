import { SUPERMARKETS, type SupermarketId } from '../../../config/supermarkets';

type AccentKind = 'ring' | 'underline' | 'side-bar' | 'footer' | 'corner' | 'plus-badge';

interface WordmarkStyle {
  background: string;
  text: string;
  fontSize: number;
  accent?: { kind: AccentKind; color: string };
}

const WIDTH = 160;
const HEIGHT = 56;
const RADIUS = 12;
const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

// Albert Heijn, Plus and Ekoplaza use slightly deeper shades than the brand colours: white text on the
// original blues/greens is below 3:1, these shades reach at least 4.5:1.
const WORDMARK_STYLES: Record<SupermarketId, WordmarkStyle> = {
  'albert-heijn': { background: '#0079c1', text: '#ffffff', fontSize: 22 },
  jumbo: { background: '#ffd400', text: '#000000', fontSize: 30 },
  lidl: { background: '#0050aa', text: '#fff200', fontSize: 32, accent: { kind: 'ring', color: '#e60a14' } },
  plus: {
    background: '#43801a',
    text: '#ffffff',
    fontSize: 30,
    accent: { kind: 'plus-badge', color: '#e30613' },
  },
  aldi: {
    background: '#00005f',
    text: '#ffffff',
    fontSize: 32,
    accent: { kind: 'underline', color: '#f39200' },
  },
  hoogvliet: {
    background: '#003a8c',
    text: '#ffffff',
    fontSize: 24,
    accent: { kind: 'side-bar', color: '#ff7900' },
  },
  spar: {
    background: '#00843d',
    text: '#ffffff',
    fontSize: 30,
    accent: { kind: 'footer', color: '#e2231a' },
  },
  ekoplaza: { background: '#4d7d23', text: '#ffffff', fontSize: 26 },
  dirk: { background: '#e30613', text: '#ffffff', fontSize: 32 },
  vomar: {
    background: '#e4002b',
    text: '#ffffff',
    fontSize: 28,
    accent: { kind: 'corner', color: '#0a2d6e' },
  },
};

// Where the name sits so it stays clear of the accent shape.
const TEXT_CENTRE: Record<AccentKind | 'none', { x: number; y: number }> = {
  none: { x: 80, y: 28 },
  ring: { x: 80, y: 28 },
  underline: { x: 80, y: 25 },
  'side-bar': { x: 87, y: 28 },
  footer: { x: 80, y: 22 },
  corner: { x: 78, y: 28 },
  'plus-badge': { x: 64, y: 28 },
};

function renderAccent(kind: AccentKind, color: string) {
  switch (kind) {
    case 'ring':
      return <rect x="4" y="4" width="152" height="48" rx="9" fill="none" stroke={color} strokeWidth="2.5" />;
    case 'underline':
      return <rect x="24" y="43" width="112" height="5" rx="2.5" fill={color} />;
    case 'side-bar':
      return <rect x="12" y="12" width="6" height="32" rx="3" fill={color} />;
    case 'footer':
      return <path d="M0 42h160v2a12 12 0 0 1-12 12H12A12 12 0 0 1 0 44Z" fill={color} />;
    case 'corner':
      return <path d="M128 0h20a12 12 0 0 1 12 12v28Z" fill={color} />;
    case 'plus-badge':
      return (
        <>
          <circle cx="126" cy="28" r="13" fill="#ffffff" />
          <path d="M126 20v16M118 28h16" stroke={color} strokeWidth="5" strokeLinecap="round" />
        </>
      );
  }
}

export function SupermarketWordmark({ id, className }: { id: SupermarketId; className?: string }) {
  const name = SUPERMARKETS.find((supermarket) => supermarket.id === id)?.name ?? id;
  const { background, text, fontSize, accent } = WORDMARK_STYLES[id];
  const centre = TEXT_CENTRE[accent?.kind ?? 'none'];

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      xmlns="http://www.w3.org/2000/svg"
      role="img"
      aria-label={name}
      className={className}
    >
      <rect width={WIDTH} height={HEIGHT} rx={RADIUS} fill={background} />
      {accent ? renderAccent(accent.kind, accent.color) : null}
      <text
        x={centre.x}
        y={centre.y}
        fill={text}
        fontFamily={FONT_FAMILY}
        fontSize={fontSize}
        fontWeight="700"
        textAnchor="middle"
        dominantBaseline="central"
      >
        {name}
      </text>
    </svg>
  );
}
