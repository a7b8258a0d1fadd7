"""Process plumbing every stage may use: forked workers (``forks``), signals (``signals``) and what
later Pythons' standard library has (``compat``). Imports no stage of kg."""
