# C declarations of skat/rules/kernel.py for the compiled core (skat/deal/_core.py cimports them).
cpdef unsigned long long legal_mask(int gt, unsigned long long hand, int lead)
cpdef int winner_of(int gt, int a, int b, int c)
