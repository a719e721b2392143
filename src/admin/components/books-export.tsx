/** The accounting export action of the Crypto page (being built). */
export const BooksExportButton = () => null
