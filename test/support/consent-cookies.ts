/** Cookies of the consent scenarios (docs/protocol.md#services-clearing-revision), shared by the Chromium suite and the engine scenarios. */

/** A visitor who accepted all four categories. */
export const ALLOW_ALL = { cookieconsent_status: 'allow', cookieconsent_categories: '1.2.3.4' };
/** A visitor who chose, Marketing off. */
export const DECLINED_MARKETING = { cookieconsent_status: 'allow', cookieconsent_categories: '1.2' };
/** What Google Analytics 4 and the Meta pixel leave on a site after an "accept all" (values as they write them). */
export const TRACKING = {
  _ga: 'GA1.1.42.1700000000',
  _ga_ABC123: 'GS1.1.1700000000',
  _gid: 'GA1.1.7.1700000000',
  _fbp: 'fb.1.1700000000.9',
};
