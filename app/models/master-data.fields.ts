/** The search parameter with the urlPath a master-data table is narrowed to (browser and server alike). */
export const FILE_PARAM = "file";
