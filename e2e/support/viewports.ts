/** The two screens every usability journey checks: a desktop and a phone. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
