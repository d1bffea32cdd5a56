-- The properties of `first_ctrex` (tools/src/bin/first_ctrex.rs) and the
-- programs of tools/src/benchmarks/small_programs.rs, written for Lazy
-- SmallCheck 0.6 as its users write them: its own `Serial` instances
-- (`Char` is 'a'.. up to the depth, `Int` -d..d), naturals drawn from
-- 0..d where the Rust property reads unsigned numbers, and the same
-- programs with the same bugs. `run.sh` builds it with GHC -O2 and times
-- each property to its counterexample (`test`: depth 0, 1, 2, ... until a
-- counterexample, which ends the process).
module Main (main) where

import Data.List (delete, findIndex, nub, permutations, subsequences)
import Data.Maybe (fromMaybe)
import Test.LazySmallCheck
import Timed (timedMain)

newtype Nat = Nat Int deriving (Eq, Ord, Show)

instance Serial Nat where
  series d = drawnFrom (map Nat [0 .. d])

-- first_ctrex's own properties -------------------------------------------

sixDistinct :: [Nat] -> Bool
sixDistinct xs = length xs < 6 || length (nub xs) < length xs

fiveChars :: [Char] -> Bool
fiveChars s = length (nub s) < 5

sevenNonzero :: [Nat] -> Bool
sevenNonzero xs = length (take 7 xs) < 7 || any (== Nat 0) xs

-- Ordered-list sets ------------------------------------------------------

isSet :: Ord a => [a] -> Bool
isSet (x : y : zs) = x < y && isSet (y : zs)
isSet _ = True

insertShallow :: Char -> [Char] -> [Char]
insertShallow c [] = [c]
insertShallow c (x : rest)
  | c < x = c : x : rest
  | c > x = x : c : rest
  | otherwise = x : rest

insertFastPath :: Char -> [Char] -> [Char]
insertFastPath c s
  | length s < 4 = case findIndex (>= c) s of
      Just i
        | s !! i == c -> s
        | otherwise -> take i s ++ [c] ++ drop i s
      Nothing -> s ++ [c]
  | otherwise =
      let lo = search 0 (length s - 1)
       in if s !! lo /= c then take lo s ++ [c] ++ drop lo s else s
  where
    search lo hi
      | lo < hi =
          let mid = (lo + hi) `div` 2
           in if s !! mid < c then search (mid + 1) hi else search lo mid
      | otherwise = lo

keepsASet :: (Char -> [Char] -> [Char]) -> (Char, [Char]) -> Bool
keepsASet insert (c, s) = isSet s ==> isSet (insert c s)

-- Huffman ------------------------------------------------------------------

data HTree = Leaf Char | Fork HTree HTree deriving (Eq, Show)

instance Serial HTree where
  series = cons1 Leaf \/ cons2 Fork

collate :: [Char] -> [(Int, HTree)]
collate cs = foldl place [] (reverse firsts)
  where
    firsts = [(c, length (filter (== c) cs)) | c <- nub cs]
    place out (c, n) = let (lighter, rest) = span (\(w, _) -> not (n <= w)) out
                        in lighter ++ [(n, Leaf c)] ++ rest

-- The bug: the merged tree goes to the front of the queue.
frontMerge :: [(Int, HTree)] -> HTree
frontMerge [(_, t)] = t
frontMerge ((w0, t0) : (w1, t1) : rest) = frontMerge ((w0 + w1, Fork t0 t1) : rest)
frontMerge [] = error "a nonempty queue"

cost :: [(Int, HTree)] -> HTree -> Int
cost h = go 0
  where
    go depth (Leaf c) = depth * fromMaybe 0 (lookup (Leaf c) [(l, w) | (w, l) <- h])
    go depth (Fork l r) = go (depth + 1) l + go (depth + 1) r

treeOf :: HTree -> [(Int, HTree)] -> Bool
treeOf t h = go [t] [c | (_, Leaf c) <- h]
  where
    go [] left = null left
    go (Leaf c : ts) left = c `elem` left && go ts (delete c left)
    go (Fork l r : ts) left = go (l : r : ts) left

huffmanOptimal :: ([Char], HTree) -> Bool
huffmanOptimal (cs, t) =
  let h = collate cs
   in not (treeOf t h) || cost h t >= cost h (frontMerge h)

-- Cryptarithms ---------------------------------------------------------------

type Solution = [(Char, Int)]

bindings :: Char -> [Int] -> Solution -> [Solution]
bindings c digits s = case lookup c s of
  Just d -> [s | d `elem` digits]
  Nothing -> [s ++ [(c, d)] | d <- digits, all ((/= d) . snd) s]

-- The bug: a carry left over when every column is summed is dropped.
solutions :: [Char] -> [Char] -> [Char] -> Int -> Solution -> [Solution]
solutions [] [] [] _ s = [s]
solutions [] [] [z] 1 s = bindings z [1] s
solutions (x : xs) (y : ys) (z : zs) carry s =
  [ s4
  | s1 <- bindings x [low xs .. 9] s,
    s2 <- bindings y [low ys .. 9] s1,
    let xy = digit s2 x + digit s2 y + carry,
    s3 <- bindings z [xy `mod` 10] s2,
    s4 <- solutions xs ys zs (xy `div` 10) s3
  ]
  where
    low rest = if null rest then 1 else 0
    digit s' c = fromMaybe 0 (lookup c s')
solutions _ _ _ _ _ = []

valueOf :: Solution -> [Char] -> Integer
valueOf s = foldl (\v c -> v * 10 + toInteger (fromMaybe 0 (lookup c s))) 0

sumpuzSound :: ([Char], [Char], [Char]) -> Bool
sumpuzSound (xs, ys, zs)
  | length xs /= length ys || not (length zs == length xs || length zs == length xs + 1) = True
  | otherwise =
      all (\s -> valueOf s xs + valueOf s ys == valueOf s zs)
        (solutions (reverse xs) (reverse ys) (reverse zs) 0 [])

-- Countdown ------------------------------------------------------------------

data Op = Add | Sub | Mul | Div deriving (Eq, Enum, Bounded)

applyAny :: Op -> Int -> Int -> Maybe Int
applyAny Add x y = Just (x + y)
applyAny Sub x y = if x > y then Just (x - y) else Nothing
applyAny Mul x y = Just (x * y)
applyAny Div x y = if y /= 0 && x `mod` y == 0 then Just (x `div` y) else Nothing

-- The bug: a product of two equal numbers is excluded.
applyPruned :: Op -> Int -> Int -> Maybe Int
applyPruned op x y = if allowed op then applyAny op x y else Nothing
  where
    allowed Add = x <= y
    allowed Sub = x > y
    allowed Mul = x /= 1 && y /= 1 && x < y
    allowed Div = y /= 1 && y /= 0 && x `mod` y == 0

results :: (Op -> Int -> Int -> Maybe Int) -> [Int] -> [Int]
results _ [] = []
results _ [n] = [n | n > 0]
results apply ns =
  [ r
  | cut <- [1 .. length ns - 1],
    let right = results apply (drop cut ns),
    x <- results apply (take cut ns),
    y <- right,
    op <- [minBound .. maxBound],
    Just r <- [apply op x y]
  ]

solvable :: (Op -> Int -> Int -> Maybe Int) -> [Int] -> Int -> Bool
solvable apply ns target =
  any (elem target . results apply) (concatMap permutations (subsequences ns))

countdownComplete :: ([Nat], Nat) -> Bool
countdownComplete (ns, Nat target)
  | length ns > 4 = True
  | otherwise =
      let ns' = [n | Nat n <- ns]
       in not (solvable applyAny ns' target) || solvable applyPruned ns' target

-- Turner's abstraction ---------------------------------------------------------

data Var = V0 | V1 deriving (Eq, Show)

data Comb = I | K | B | C | S | C2 | B2 | S2 deriving (Eq, Show)

data Exp = App Exp Exp | Lam Var Exp | Var Var | Comb Comb deriving (Eq, Show)

instance Serial Var where
  series = cons0 V0 \/ cons0 V1

instance Serial Comb where
  series = cons0 I \/ cons0 K \/ cons0 B \/ cons0 C \/ cons0 S \/ cons0 C2 \/ cons0 B2 \/ cons0 S2

instance Serial Exp where
  series = cons2 App \/ cons2 Lam \/ cons1 Var \/ cons1 Comb

apps :: Comb -> [Exp] -> Exp
apps c = foldl App (Comb c)

abstr :: Var -> Exp -> Exp
abstr v (App f x) = optimise (apps S [abstr v f, abstr v x])
abstr v (Var w) | w == v = Comb I
abstr _ e = App (Comb K) e

optimise :: Exp -> Exp
optimise (App (App (Comb S) p) q)
  | Just kp <- kOf p, Just kq <- kOf q = apps K [App kp kq]
  | Just kp <- kOf p, Comb I <- q = kp
  | Just kp <- kOf p, Just (q1, r1) <- bOf q = apps B2 [kp, q1, r1]
  | Just kp <- kOf p = apps B [kp, q]
  | Just (p1, q1) <- bOf p, Just r <- kOf q = apps C2 [p1, q1, r]
  | Just q1 <- kOf q = apps C [p, q1]
  | Just (p1, q1) <- bOf p = apps S2 [p1, q1, q]
  | otherwise = apps S [p, q]
  where
    kOf (App (Comb K) a) = Just a
    kOf _ = Nothing
    bOf (App (App (Comb B) a) b) = Just (a, b)
    bOf _ = Nothing
optimise e = e

reduce :: Exp -> Maybe Exp
reduce (App (Comb I) a) = Just a
reduce (App (App (Comb K) a) _) = Just a
reduce (App (App (App (Comb S) f) g) x) = Just (App (App f x) (App g x))
reduce (App (App (App (Comb B) f) g) x) = Just (App f (App g x))
reduce (App (App (App (Comb C) f) g) x) = Just (App (App f x) g)
reduce (App (App (App (App (Comb B2) k) f) g) x) = Just (App k (App f (App g x)))
reduce (App (App (App (App (Comb C2) k) f) g) x) = Just (App (App k (App f x)) g)
reduce (App (App (App (App (Comb S2) k) f) g) x) = Just (App (App k (App f x)) (App g x))
reduce _ = Nothing

-- Peyton Jones's `simplify`, with the Rust version's budget of steps.
simplify :: Exp -> Int -> Maybe (Exp, Int)
simplify e 0 = Nothing
simplify e steps = case reduce e of
  Just e' -> simplify e' (steps - 1)
  Nothing -> case e of
    App f x -> do
      (f', left) <- simplify f (steps - 1)
      (x', left') <- simplify x left
      Just (App f' x', left')
    _ -> Just (e, steps - 1)

turnerAbstraction :: (Var, Exp) -> Bool
turnerAbstraction (v, e) = case simplify (App (abstr v e) (Var v)) 1000 of
  Just (normal, _) -> normal == e
  Nothing -> True

-- The driver ---------------------------------------------------------------

main :: IO ()
main = timedMain run
  where
    run "six-distinct" = test sixDistinct
    run "five-chars" = test fiveChars
    run "seven-nonzero" = test sevenNonzero
    run "listset-shallow" = test (keepsASet insertShallow)
    run "listset-fast" = test (keepsASet insertFastPath)
    run "huffman-opt" = test huffmanOptimal
    run "sumpuz-carry" = test sumpuzSound
    run "countdown-sq" = test countdownComplete
    run "turner" = test turnerAbstraction
    run other = error ("no property " ++ other)
