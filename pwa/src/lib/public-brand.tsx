// Lets a public page (the booking page) show its company's name and logo in the public header.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

export interface Brand {
  name: string;
  logoUrl: string | null;
  /** Where the brand links to. */
  href: string;
}

const BrandContext = createContext<{ brand: Brand | null; setBrand: (b: Brand | null) => void }>({
  brand: null,
  setBrand: () => undefined,
});

export function PublicBrandProvider({ children }: { children: ReactNode }) {
  const [brand, setBrand] = useState<Brand | null>(null);
  return <BrandContext.Provider value={{ brand, setBrand }}>{children}</BrandContext.Provider>;
}

export function usePublicBrandValue(): Brand | null {
  return useContext(BrandContext).brand;
}

/** Shows `brand` in the public header while the calling page is mounted. */
export function usePublicBrand(brand: Brand | null): void {
  const { setBrand } = useContext(BrandContext);
  const name = brand?.name;
  const logoUrl = brand?.logoUrl;
  const href = brand?.href;
  useEffect(() => {
    setBrand(name ? { name, logoUrl: logoUrl ?? null, href: href ?? '/' } : null);
    return () => setBrand(null);
  }, [name, logoUrl, href, setBrand]);
}
