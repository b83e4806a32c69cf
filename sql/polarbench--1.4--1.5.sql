/* polarbench 1.4 to 1.5 */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.5'" to load this file. \quit
