"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Sessions", active: (p: string) => p === "/" || p.startsWith("/sessions") },
  { href: "/ops", label: "Ops", active: (p: string) => p.startsWith("/ops") },
];

export function NavLinks() {
  const pathname = usePathname() ?? "/";
  return (
    <nav aria-label="Main" className="nav">
      {LINKS.map((l) => (
        <Link key={l.href} href={l.href} aria-current={l.active(pathname) ? "page" : undefined}>
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
