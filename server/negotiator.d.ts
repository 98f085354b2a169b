// The compression middleware's own Accept-* negotiator (0.6.4, a direct dependency at the same version), typed for
// what server/compression-settings.ts calls: 0.6.4's `preferred` list breaks ties of equal quality.
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    encoding(available?: readonly string[], preferred?: readonly string[]): string | undefined;
  }
}
