export function Mascot({ className, label }: { className?: string; label: string }) {
  return (
    <svg
      viewBox="0 0 200 200"
      xmlns="http://www.w3.org/2000/svg"
      role="img"
      aria-label={label}
      className={className}
    >
      <ellipse cx="100" cy="190" rx="62" ry="6" className="fill-brand-200" />
      <path
        d="M56 98C56 30 144 30 144 98"
        fill="none"
        stroke="#15803d"
        strokeWidth="9"
        strokeLinecap="round"
      />
      <g transform="rotate(28 128 74)">
        <rect x="116" y="30" width="24" height="88" rx="12" fill="#eab308" />
        <path
          d="M122 46l12-6M122 62l12-6M122 78l12-6"
          stroke="#fde68a"
          strokeWidth="4"
          strokeLinecap="round"
        />
      </g>
      <path
        d="M66 60q-12-16-6-28M68 58q0-18 10-26M70 60q10-12 22-12"
        fill="none"
        stroke="#22c55e"
        strokeWidth="5"
        strokeLinecap="round"
      />
      <path d="M74 122 56 66q10-12 24-6Z" fill="#f97316" />
      <path d="M62 78h7M65 86h6" stroke="#fde68a" strokeWidth="2.5" strokeLinecap="round" />
      <circle cx="102" cy="80" r="20" fill="#ef4444" />
      <ellipse cx="94" cy="72" rx="4" ry="6" fill="#fff" fillOpacity=".45" />
      <path d="M102 61q1-9 6-12" fill="none" stroke="#15803d" strokeWidth="3.5" strokeLinecap="round" />
      <ellipse cx="114" cy="54" rx="8" ry="4" transform="rotate(-20 114 54)" fill="#22c55e" />
      <path
        d="M52 128q-18 2-24-14M148 128q18 2 24-14"
        fill="none"
        stroke="#15803d"
        strokeWidth="7"
        strokeLinecap="round"
      />
      <circle cx="27" cy="110" r="7" fill="#22c55e" />
      <circle cx="173" cy="110" r="7" fill="#22c55e" />
      <ellipse cx="78" cy="182" rx="13" ry="6" fill="#15803d" />
      <ellipse cx="122" cy="182" rx="13" ry="6" fill="#15803d" />
      <path d="M46 104h108l-10 66q-2 10-12 10H68q-10 0-12-10Z" fill="#22c55e" />
      <path
        d="M58 166h84M60 172h80M66 104v6M86 104v6M106 104v6M126 104v6M146 104v6"
        stroke="#15803d"
        strokeWidth="3"
        strokeLinecap="round"
      />
      <rect x="38" y="92" width="124" height="16" rx="8" fill="#15803d" />
      <path
        d="M50 100h10M70 100h10M90 100h10M110 100h10M130 100h10"
        stroke="#bbf7d0"
        strokeWidth="3"
        strokeLinecap="round"
      />
      <ellipse cx="82" cy="128" rx="9" ry="10" fill="#fff" />
      <ellipse cx="118" cy="128" rx="9" ry="10" fill="#fff" />
      <circle cx="84" cy="130" r="5" fill="#14532d" />
      <circle cx="120" cy="130" r="5" fill="#14532d" />
      <circle cx="86" cy="127.5" r="1.8" fill="#fff" />
      <circle cx="122" cy="127.5" r="1.8" fill="#fff" />
      <ellipse cx="68" cy="146" rx="8" ry="5" fill="#fca5a5" />
      <ellipse cx="132" cy="146" rx="8" ry="5" fill="#fca5a5" />
      <path d="M86 146q14 14 28 0" fill="none" stroke="#14532d" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
