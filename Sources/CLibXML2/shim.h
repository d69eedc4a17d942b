#ifndef PLAINVIEW_CLIBXML2_SHIM_H
#define PLAINVIEW_CLIBXML2_SHIM_H
// xmlversion.h first, then switch ICU off: libxml2's ICU headers clash with Foundation's bundled ICU.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>
#include <libxml/xmlmemory.h>
#include <libxml/parserInternals.h>

// xmlFree is a global function pointer; Swift 6 refuses it as not concurrency-safe.
static inline void plainview_xmlFree(void *p) { xmlFree(p); }
#endif
