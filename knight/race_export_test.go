package knight

// RaceEnabled is raceEnabled for the tests of package knight_test.
const RaceEnabled = raceEnabled
