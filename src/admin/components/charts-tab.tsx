/** Crypto → Charts (being built). */
export const ChartsTab = () => null
