"""Moved to ``kg.corpus.scierc``; this name stays for the callers outside the corpus package."""
from kg.corpus.scierc import (PTB_TOKENS, TYPE_MAP, UNSCORED_TYPES, GoldEntity, ScierDoc,  # noqa: F401
                              detokenize, parse_generic, parse_scierc, read_gold, read_scierc)
