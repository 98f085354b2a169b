/** The shape of the header menu and side navigation; app/access.ts produces it per user. */
export type NavLinkItem = { label: string; to: string };
export type NavGroup = { label: string; items: NavLinkItem[] };

export type NavigationProps = {
  /** Header (user) menu entries, e.g. user settings, logout. */
  menu: NavLinkItem[];
  /** Side navigation groups with their items. */
  sideNav: NavGroup[];
};
