/** The seasonality profiles' screen (its route: app/routes/ij.forecast_perfis_sazonalidade.tsx). */
export const PROFILES_PATH = "/ij/forecast_perfis_sazonalidade";
