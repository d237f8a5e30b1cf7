; problem with uppercase names
(DEFINE (PROBLEM Switches-1) (:DOMAIN SWITCHES)
  (:OBJECTS S1 s2) ; two switches
  (:INIT (Off S1) ; first
         (OFF s2))
  (:GOAL (AND (On s1) (ON S2))))
