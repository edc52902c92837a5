<?php
/**
 * Joomla 3's error document (Joomla\CMS\Document\ErrorDocument), loaded only when the error page
 * is rendered, as the autoloader loads it there: its class being loaded is what the plugin reads
 * on JError's path.
 */

namespace Joomla\CMS\Document;

class ErrorDocument
{
    /** The status header, then what the template's error.php prints. */
    public function render($page, $code)
    {
        \Joomla\CMS\Factory::getApplication()->setHeader('status', $code < 400 || $code > 599 ? 500 : $code);
        return $page;
    }
}
